// The key that seals requestState: WebCrypto's AES-256-GCM on every runtime, or a faster one a runtime adapter supplies.
import { fromUtf8, utf8 } from './encoding';

/** AES-256-GCM under one 32-byte key; either implementation gives the same bytes, so states move between runtimes. */
export interface AeadKey {
  /** The ciphertext of text's UTF-8, then its 16-byte tag, with `aad`'s UTF-8 as the additional data. */
  seal(iv: Uint8Array<ArrayBuffer>, text: string, aad: string): Promise<Uint8Array> | Uint8Array;
  /** The text, or undefined when the tag does not verify (another key, another IV or aad, a changed byte). */
  open(
    iv: Uint8Array<ArrayBuffer>,
    data: Uint8Array<ArrayBuffer>,
    tag: Uint8Array<ArrayBuffer>,
    aad: string,
  ): Promise<string | undefined> | string | undefined;
}

export type AeadFactory = (key: Uint8Array<ArrayBuffer>) => AeadKey;

export const AEAD_TAG_BYTES = 16;

/**
 * WebCrypto's AES-GCM, or the runtime's own when its adapter passes one (parley-mcp/node: node:crypto's, synchronous,
 * with no thread-pool round trip per state as WebCrypto's has on Node).
 */
export async function createAeadKey(raw: Uint8Array<ArrayBuffer>, native?: AeadFactory): Promise<AeadKey> {
  if (raw.length !== 32) throw new Error('AES-256-GCM takes a 32-byte key');
  if (native) return native(raw);
  const key = await crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
  return {
    seal: async (iv, text, aad) =>
      new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: utf8(aad) }, key, utf8(text))),
    async open(iv, data, tag, aad) {
      const joined = new Uint8Array(data.length + tag.length);
      joined.set(data);
      joined.set(tag, data.length);
      try {
        return fromUtf8(new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: utf8(aad) }, key, joined)));
      } catch {
        return undefined;
      }
    },
  };
}
