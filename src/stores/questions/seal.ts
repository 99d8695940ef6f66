// The question store's one sealing: AES-256-GCM under a key per owner (HKDF-SHA256 of the secret, the owner in its
// info), the storage key as the additional data, so a value moved to another key does not open. Written
// `v3.<key id>.<iv>.<ciphertext>.<tag>`; the inbox's `v2.<key id>.<iv>.<ciphertext+tag>` and `v1.<iv>.<…>` (same keys,
// same additional data) still open. Without a secret, values are plain JSON.
import {
  type AeadKey,
  createAeadKey,
  fromBase64Url,
  keyIdOf,
  randomBytes,
  secretList,
  type StoreCrypto,
  toBase64Url,
  WEB_STORE_CRYPTO,
} from '../../crypto';

const SALT = 'parley-persistent-questions-v1';
const TAG_BYTES = 16;
/** Owners' keys kept per secret (a task's values are opened on every poll), least recently used dropped first. */
const KEPT_KEYS = 1_000;

interface SealKey {
  id: Promise<string>;
  derive(owner: string): Promise<AeadKey>;
  owners: Map<string, Promise<AeadKey>>;
}

const base64Url = (text: string | undefined, bytes?: number): string | undefined => {
  const decoded = text === undefined ? undefined : fromBase64Url(text);
  return decoded && (bytes === undefined || decoded.length === bytes) ? text : undefined;
};

/** Seals under the first listed secret; opens under the one a value names (each in turn for `v1`, before key ids). */
export class QuestionSeal {
  readonly #keys: SealKey[];

  constructor(secret: string | undefined, crypto: StoreCrypto = WEB_STORE_CRYPTO) {
    this.#keys = secretList(secret).map((one) => ({
      id: keyIdOf(one),
      derive: async (owner) => createAeadKey(await crypto.hkdf(one, SALT, `subject:${owner}`), crypto.aead),
      owners: new Map(),
    }));
  }

  get encrypted(): boolean {
    return this.#keys.length > 0;
  }

  async seal(value: unknown, owner: string, storageKey: string): Promise<string> {
    const json = JSON.stringify(value);
    const key = this.#keys[0];
    if (!key) return json;
    const iv = randomBytes(12);
    const body = await (await this.#aead(key, owner)).seal(iv, json, storageKey);
    return `v3.${await key.id}.${toBase64Url(iv)}.${body}`;
  }

  /** The value, or undefined when it is missing, unreadable, under another key or owner, or under a secret not listed. */
  async open<T>(raw: string | undefined, owner: string, storageKey: string): Promise<T | undefined> {
    if (raw === undefined) return undefined;
    try {
      if (!this.encrypted) return /^v[123]\./.test(raw) ? undefined : (JSON.parse(raw) as T);
      const sealed = unpack(raw);
      if (!sealed) return undefined;
      for (const key of this.#keys) {
        if (sealed.id !== undefined && (await key.id) !== sealed.id) continue;
        const text = await (await this.#aead(key, owner)).open(sealed.iv, sealed.data, sealed.tag, storageKey);
        if (text !== undefined) return JSON.parse(text) as T;
        if (sealed.id !== undefined) return undefined;
      }
      return undefined;
    } catch {
      return undefined;
    }
  }

  #aead(key: SealKey, owner: string): Promise<AeadKey> {
    let aead = key.owners.get(owner);
    if (aead)
      key.owners.delete(owner); // re-inserted below as the most recent
    else aead = key.derive(owner);
    key.owners.set(owner, aead);
    if (key.owners.size > KEPT_KEYS) key.owners.delete(key.owners.keys().next().value!);
    aead.catch(() => key.owners.get(owner) === aead && key.owners.delete(owner));
    return aead;
  }
}

/** The parts of a sealed value, each checked to be base64url (the tag 16 bytes, the iv 12), or undefined. */
function unpack(raw: string): { id?: string; iv: string; data: string; tag: string } | undefined {
  const parts = raw.split('.');
  if (parts[0] === 'v3' && parts.length === 5) {
    const [, id, iv, data, tag] = parts;
    const ok = base64Url(iv, 12) && base64Url(data) !== undefined && base64Url(tag, TAG_BYTES);
    return ok ? { id: id!, iv: iv!, data: data!, tag: tag! } : undefined;
  }
  // The inbox's values before v3: the tag at the end of the body; v1 names no key id.
  const [id, iv, body] =
    parts[0] === 'v2' && parts.length === 4
      ? parts.slice(1)
      : parts[0] === 'v1' && parts.length === 3
        ? [undefined, ...parts.slice(1)]
        : [];
  const bytes = body === undefined ? undefined : fromBase64Url(body);
  if (!base64Url(iv, 12) || !bytes || bytes.length < TAG_BYTES) return undefined;
  return {
    ...(id === undefined ? {} : { id }),
    iv: iv!,
    data: toBase64Url(bytes.subarray(0, -TAG_BYTES)),
    tag: toBase64Url(bytes.subarray(-TAG_BYTES)),
  };
}
