// How questions sit in a store: key names (HMACs with a secret) and values (AES-256-GCM per subject with a secret).
import {
  deriveAesKey,
  fromBase64Url,
  fromUtf8,
  hmac,
  importHmacKey,
  keyIdOf,
  randomBytes,
  secretList,
  sha256,
  toBase64Url,
  toHex,
  utf8,
} from '../crypto';

const SALT = 'parley-persistent-questions-v1';
const MAX_CACHED_KEYS = 256;

/** One listed secret: its key id, its naming HMAC key, and its per-subject AES keys (cached by subject, never by secret). */
interface CodecKey {
  id: Promise<string>;
  names: Promise<CryptoKey>;
  aes: Map<string, Promise<CryptoKey>>;
  derive(subject: string): Promise<CryptoKey>;
}

/**
 * With a secret, storage keys are HMACs of what they name and values are sealed with a key derived from the secret
 * and the subject (the storage key is the additional data, so a value cannot be moved to another key). Without one,
 * keys are readable and values are plain JSON. The secret setting may list several (comma-separated, newest first):
 * the first names and seals what is written, and reads look under each listed secret's names and open a value under
 * the key id it names. A record of a secret no longer listed is unreachable: it expires.
 */
export class QuestionCodec {
  // #private: the keys made from the secrets are never serialized or inspected from here.
  readonly #keys: CodecKey[];

  constructor(
    readonly prefix: string,
    secret?: string,
  ) {
    this.#keys = secretList(secret).map((one) => ({
      id: keyIdOf(one),
      names: importHmacKey(`${SALT}:keys:${one}`),
      aes: new Map(),
      derive: (subject) => deriveAesKey(one, SALT, `subject:${subject}`),
    }));
  }

  get encrypted(): boolean {
    return this.#keys.length > 0;
  }

  /** The storage key of a record kind for a subject (and part, e.g. a question id), under the first secret: where writes go. */
  async key(kind: string, subject: string, part = ''): Promise<string> {
    return this.#name(this.#keys[0], kind, subject, part);
  }

  /** Every storage key the record may be under, the first secret's first: a read looks at each in turn. */
  async keys(kind: string, subject: string, part = ''): Promise<string[]> {
    if (this.#keys.length <= 1) return [await this.key(kind, subject, part)];
    return Promise.all(this.#keys.map((k) => this.#name(k, kind, subject, part)));
  }

  /** The key of a secret token (a sign-in code, a session id): never the token itself. */
  async tokenKey(kind: string, token: string): Promise<string> {
    if (this.encrypted) return this.key(kind, '', token);
    return `${this.prefix}${kind}:${toHex(await sha256(token))}`;
  }

  /** Every key a secret token may be under (see keys). */
  async tokenKeys(kind: string, token: string): Promise<string[]> {
    if (this.encrypted) return this.keys(kind, '', token);
    return [await this.tokenKey(kind, token)];
  }

  async seal(value: unknown, subject: string, storageKey: string): Promise<string> {
    const json = JSON.stringify(value);
    const key = this.#keys[0];
    if (!key) return json;
    const iv = randomBytes(12);
    const sealed = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: utf8(storageKey) },
      await this.#aesKey(key, subject),
      utf8(json),
    );
    return `v2.${await key.id}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
  }

  /** The value, or undefined when it is missing, unreadable, or sealed under a secret no longer listed. */
  async open<T>(raw: string | undefined, subject: string, storageKey: string): Promise<T | undefined> {
    if (raw === undefined) return undefined;
    try {
      if (!this.encrypted) return /^v[12]\./.test(raw) ? undefined : (JSON.parse(raw) as T);
      const parts = raw.split('.');
      // v2: `v2.<key id>.<iv>.<body>`; v1 (before key ids): `v1.<iv>.<body>`, tried under each listed secret.
      const [version, id, iv, body] = parts[0] === 'v1' ? ['v1', undefined, parts[1], parts[2]] : parts;
      const ivBytes = iv ? fromBase64Url(iv) : undefined;
      const bodyBytes = body ? fromBase64Url(body) : undefined;
      if ((version !== 'v1' && version !== 'v2') || !ivBytes || !bodyBytes) return undefined;
      for (const key of this.#keys) {
        if (id !== undefined && (await key.id) !== id) continue;
        try {
          const plain = await crypto.subtle.decrypt(
            { name: 'AES-GCM', iv: ivBytes, additionalData: utf8(storageKey) },
            await this.#aesKey(key, subject),
            bodyBytes,
          );
          return JSON.parse(fromUtf8(new Uint8Array(plain))) as T;
        } catch {
          if (id !== undefined) return undefined;
        }
      }
      return undefined;
    } catch {
      return undefined;
    }
  }

  async #name(key: CodecKey | undefined, kind: string, subject: string, part: string): Promise<string> {
    if (!key) return `${this.prefix}${kind}:${subject}${part ? `:${part}` : ''}`;
    return `${this.prefix}${kind}:${toBase64Url(await hmac(await key.names, `${kind}\u0000${subject}\u0000${part}`))}`;
  }

  #aesKey(key: CodecKey, subject: string): Promise<CryptoKey> {
    let aes = key.aes.get(subject);
    if (!aes) {
      if (key.aes.size >= MAX_CACHED_KEYS) key.aes.delete(key.aes.keys().next().value!);
      aes = key.derive(subject);
      key.aes.set(subject, aes);
    }
    return aes;
  }
}
