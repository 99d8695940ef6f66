// AES-256-GCM on crypto.subtle: seal bytes into { iv, tag, data } (base64url) and open them again.
import { fromBase64Url, toBase64Url } from './encoding';
import { randomBytes } from './keys';

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
