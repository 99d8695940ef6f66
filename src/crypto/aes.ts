// AES-256-GCM on crypto.subtle: seal bytes into { iv, tag, data } (base64url) and open them again; JSON per owner key.
import { fromBase64Url, fromUtf8, toBase64Url, utf8 } from './encoding';
import { deriveAesKey, randomBytes } from './keys';

export interface AesSealed {
  alg: 'A256GCM';
  iv: string;
  tag: string;
  data: string;
}

const TAG_BYTES = 16;

export async function aesSeal(key: CryptoKey, plaintext: Uint8Array<ArrayBuffer>): Promise<AesSealed> {
  const iv = randomBytes(12);
  const out = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, tagLength: TAG_BYTES * 8 }, key, plaintext));
  // WebCrypto appends the tag to the ciphertext; the record keeps them apart.
  return { alg: 'A256GCM', iv: toBase64Url(iv), tag: toBase64Url(out.subarray(out.length - TAG_BYTES)), data: toBase64Url(out.subarray(0, out.length - TAG_BYTES)) };
}

/** Returns the plaintext, or undefined when the key is wrong or the record was changed. */
export async function aesOpen(key: CryptoKey, sealed: AesSealed): Promise<Uint8Array | undefined> {
  const iv = fromBase64Url(sealed.iv);
  const tag = fromBase64Url(sealed.tag);
  const data = fromBase64Url(sealed.data);
  if (sealed.alg !== 'A256GCM' || !iv || !tag || !data || tag.length !== TAG_BYTES) return undefined;
  const joined = new Uint8Array(data.length + TAG_BYTES);
  joined.set(data);
  joined.set(tag, data.length);
  try {
    return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv, tagLength: TAG_BYTES * 8 }, key, joined));
  } catch {
    return undefined;
  }
}

/** What a record key is derived for; another purpose gets another key from the same secret and owner. */
export const ELICITATION_STORE_PURPOSE = 'parley elicitation store v1';
const KEY_CACHE_LIMIT = 1_000;
const keyCache = new Map<string, Promise<CryptoKey>>();

/** HKDF-SHA256 over the secret, with the owner id (a session id, a subject) as salt: each owner has a key of its own. Cached, least recently used dropped first. */
export function ownerKey(secret: string, ownerId: string, purpose = ELICITATION_STORE_PURPOSE): Promise<CryptoKey> {
  const id = JSON.stringify([purpose, secret, ownerId]);
  let key = keyCache.get(id);
  if (key) keyCache.delete(id); // re-inserted below as the most recent
  else
    key = deriveAesKey(secret, ownerId, purpose).catch((error: unknown) => {
      keyCache.delete(id);
      throw error;
    });
  keyCache.set(id, key);
  if (keyCache.size > KEY_CACHE_LIMIT) keyCache.delete(keyCache.keys().next().value!);
  return key;
}

/**
 * Encrypts a JSON value for one owner with AES-256-GCM.
 * @example const sealed = await encryptJson(secret, sessionId, { message, schema }); // { alg: 'A256GCM', iv, tag, data }
 */
export async function encryptJson(secret: string, ownerId: string, value: unknown, purpose?: string): Promise<AesSealed> {
  return aesSeal(await ownerKey(secret, ownerId, purpose), utf8(JSON.stringify(value)));
}

/** The value encryptJson sealed, or undefined for another secret or owner, a changed record or anything not sealed. */
export async function decryptJson(secret: string, ownerId: string, sealed: unknown, purpose?: string): Promise<unknown> {
  if (typeof sealed !== 'object' || sealed === null) return undefined;
  const { alg, iv, tag, data } = sealed as Record<string, unknown>;
  if (alg !== 'A256GCM' || typeof iv !== 'string' || typeof tag !== 'string' || typeof data !== 'string') return undefined;
  const plain = await aesOpen(await ownerKey(secret, ownerId, purpose), { alg, iv, tag, data });
  if (!plain) return undefined;
  try {
    return JSON.parse(fromUtf8(plain));
  } catch {
    return undefined;
  }
}
