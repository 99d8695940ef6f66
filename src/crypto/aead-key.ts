// The key that seals requestState: WebCrypto's AES-256-GCM on every runtime, or a faster one a runtime adapter supplies.
import { fromBase64Url, fromUtf8, toBase64Url, utf8 } from './encoding';

/** AES-256-GCM under one 32-byte key; either implementation gives the same text, so states move between runtimes. */
export interface AeadKey {
  /** `<ciphertext>.<tag>` of text's UTF-8 (16-byte tag), `aad`'s UTF-8 as the additional data, each unpadded base64url. */
  seal(iv: Uint8Array<ArrayBuffer>, text: string, aad: string): Promise<string> | string;
  /**
   * The text, or undefined when the tag does not verify (another key, another IV or aad, a changed byte). `iv` (12
   * bytes), `data` and `tag` are unpadded base64url, as the state carries them: the caller has checked that they are.
   */
  open(iv: string, data: string, tag: string, aad: string): Promise<string | undefined> | string | undefined;
}

export type AeadFactory = (key: Uint8Array<ArrayBuffer>) => AeadKey;

const TAG_BYTES = 16;

/**
 * WebCrypto's AES-GCM, or the runtime's own when its adapter passes one (parley-mcp/node: node:crypto's, synchronous,
 * with no thread-pool round trip per state as WebCrypto's has on Node, and native base64url).
 */
export async function createAeadKey(raw: Uint8Array<ArrayBuffer>, native?: AeadFactory): Promise<AeadKey> {
  if (raw.length !== 32) throw new Error('AES-256-GCM takes a 32-byte key');
  if (native) return native(raw);
  const key = await crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
  return {
    async seal(iv, text, aad) {
      const out = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: utf8(aad) }, key, utf8(text)));
      return `${toBase64Url(out.subarray(0, -TAG_BYTES))}.${toBase64Url(out.subarray(-TAG_BYTES))}`;
    },
    async open(iv, data, tag, aad) {
      const [nonce, bytes, tail] = [fromBase64Url(iv)!, fromBase64Url(data)!, fromBase64Url(tag)!];
      const joined = new Uint8Array(bytes.length + tail.length);
      joined.set(bytes);
      joined.set(tail, bytes.length);
      try {
        return fromUtf8(
          new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce, additionalData: utf8(aad) }, key, joined)),
        );
      } catch {
        return undefined;
      }
    },
  };
}
