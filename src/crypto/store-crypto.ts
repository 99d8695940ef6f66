// What a store's sealed values take: SHA-256 and HMAC-SHA256 of the names they sit under, HKDF-SHA256 keys per owner and
// AES-256-GCM over them (the question store's, stores/questions). WebCrypto's on every runtime, or a runtime adapter's
// own (parley-mcp/node: node:crypto's, with no thread-pool round trip): the two give the same names and read each
// other's sealed values.
import { decryptJson, encryptJson, type AesSealed } from './aes';
import type { AeadFactory } from './aead-key';
import { toBase64Url } from './encoding';
import type { HmacFactory } from './hmac-key';
import { hkdfBytes } from './keyring';
import { sha256 } from './keys';

export interface StoreCrypto {
  /** The unpadded base64url SHA-256 of text's UTF-8. */
  digest(text: string): Promise<string> | string;
  /** 32 bytes of HKDF-SHA256 over the secret's UTF-8. */
  hkdf(secret: string, salt: string, info: string): Promise<Uint8Array<ArrayBuffer>> | Uint8Array<ArrayBuffer>;
  /** The runtime's HMAC-SHA256 and AES-256-GCM, when faster than WebCrypto's (absent: WebCrypto's). */
  hmac?: HmacFactory;
  aead?: AeadFactory;
  /**
   * The record format tasks were sealed in before the question store (HKDF salt the storage key, no additional data).
   * Only the legacy read of stores/questions/legacy.ts opens it, and tests write it; both go with it (see there).
   */
  seal(secret: string, ownerId: string, value: unknown, purpose: string): Promise<AesSealed> | AesSealed;
  open(secret: string, ownerId: string, sealed: unknown, purpose: string): Promise<unknown>;
}

/** WebCrypto's, the same on Node, workerd and edge runtimes. */
export const WEB_STORE_CRYPTO: StoreCrypto = {
  digest: async (text) => toBase64Url(await sha256(text)),
  hkdf: (secret, salt, info) => hkdfBytes(secret, info, salt),
  seal: encryptJson,
  open: decryptJson,
};
