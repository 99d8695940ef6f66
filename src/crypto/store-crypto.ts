// What a store's sealed values take: SHA-256 of the names they sit under, and JSON sealed per owner key under a secret
// list. WebCrypto's on every runtime, or a runtime adapter's own (parley-mcp/node: node:crypto's, with no thread-pool
// round trip): the two give the same digests and read each other's sealed values.
import { decryptJson, encryptJson, type AesSealed } from './aes';
import { toBase64Url } from './encoding';
import { sha256 } from './keys';

export interface StoreCrypto {
  /** The unpadded base64url SHA-256 of text's UTF-8. */
  digest(text: string): Promise<string> | string;
  /** encryptJson's record: AES-256-GCM under HKDF-SHA256(the first listed secret, salt ownerId, info purpose), its key id named. */
  seal(secret: string, ownerId: string, value: unknown, purpose: string): Promise<AesSealed> | AesSealed;
  /** decryptJson's answer: the value, or undefined for another owner or purpose, a secret not listed, a changed record. */
  open(secret: string, ownerId: string, sealed: unknown, purpose: string): Promise<unknown>;
}

/** WebCrypto's, the same on Node, workerd and edge runtimes. */
export const WEB_STORE_CRYPTO: StoreCrypto = {
  digest: async (text) => toBase64Url(await sha256(text)),
  seal: encryptJson,
  open: decryptJson,
};
