// How questions sit in a store: key names (HMACs with a secret) and values (AES-256-GCM per subject with a secret).
import { deriveAesKey, fromBase64Url, fromUtf8, hmac, importHmacKey, randomBytes, sha256, toBase64Url, toHex, utf8 } from '../crypto';

const SALT = 'parley-persistent-questions-v1';
const MAX_CACHED_KEYS = 256;

/**
 * With a secret, storage keys are HMACs of what they name and values are sealed with a key derived from the secret
 * and the subject (the storage key is the additional data, so a value cannot be moved to another key). Without one,
 * keys are readable and values are plain JSON. Changing the secret makes old records unreachable: they expire.
 */
export class QuestionCodec {
  // #private: the secret and the keys made from it are never serialized or inspected from here.
  readonly #secret?: string;
  #hmacKey?: Promise<CryptoKey>;
  readonly #aesKeys = new Map<string, Promise<CryptoKey>>();

  constructor(
    readonly prefix: string,
    secret?: string,
  ) {
    this.#secret = secret;
  }

  get encrypted(): boolean {
    return this.#secret !== undefined;
  }

  /** The storage key of a record kind for a subject (and part, e.g. a question id). */
  async key(kind: string, subject: string, part = ''): Promise<string> {
    if (!this.#secret) return `${this.prefix}${kind}:${subject}${part ? `:${part}` : ''}`;
    this.#hmacKey ??= importHmacKey(`${SALT}:keys:${this.#secret}`);
    return `${this.prefix}${kind}:${toBase64Url(await hmac(await this.#hmacKey, `${kind}\u0000${subject}\u0000${part}`))}`;
  }

  /** The key of a secret token (a sign-in code, a session id): never the token itself. */
  async tokenKey(kind: string, token: string): Promise<string> {
    if (this.#secret) return this.key(kind, '', token);
    return `${this.prefix}${kind}:${toHex(await sha256(token))}`;
  }

  async seal(value: unknown, subject: string, storageKey: string): Promise<string> {
    const json = JSON.stringify(value);
    if (!this.#secret) return json;
    const iv = randomBytes(12);
    const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: utf8(storageKey) }, await this.#aesKey(subject), utf8(json));
    return `v1.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
  }

  /** The value, or undefined when it is missing, unreadable, or sealed under another secret. */
  async open<T>(raw: string | undefined, subject: string, storageKey: string): Promise<T | undefined> {
    if (raw === undefined) return undefined;
    try {
      if (!this.#secret) return raw.startsWith('v1.') ? undefined : (JSON.parse(raw) as T);
      const [version, iv, body] = raw.split('.');
      const ivBytes = iv ? fromBase64Url(iv) : undefined;
      const bodyBytes = body ? fromBase64Url(body) : undefined;
      if (version !== 'v1' || !ivBytes || !bodyBytes) return undefined;
      const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: ivBytes, additionalData: utf8(storageKey) }, await this.#aesKey(subject), bodyBytes);
      return JSON.parse(fromUtf8(new Uint8Array(plain))) as T;
    } catch {
      return undefined;
    }
  }

  #aesKey(subject: string): Promise<CryptoKey> {
    let key = this.#aesKeys.get(subject);
    if (!key) {
      if (this.#aesKeys.size >= MAX_CACHED_KEYS) this.#aesKeys.delete(this.#aesKeys.keys().next().value!);
      key = deriveAesKey(this.#secret!, SALT, `subject:${subject}`);
      this.#aesKeys.set(subject, key);
    }
    return key;
  }
}
