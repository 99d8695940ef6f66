// The key that signs requestState: WebCrypto's HMAC-SHA256 on every runtime, or a faster one a runtime adapter supplies.
import { toBase64Url, utf8 } from './encoding';
import { hmac, importHmacKey } from './keys';

/** HMAC-SHA256 under one secret; either implementation gives the same text, so states move between runtimes. */
export interface HmacKey {
  /** The unpadded base64url of the HMAC of data's UTF-8. */
  sign(data: string): Promise<string> | string;
}

export type HmacFactory = (secret: Uint8Array<ArrayBuffer>) => HmacKey;

/**
 * WebCrypto's HMAC, or the runtime's own when its adapter passes one (parley-mcp/node: node:crypto's, synchronous and
 * several times cheaper on Node than WebCrypto's thread-pool round trip).
 */
export async function createHmacKey(secret: string | Uint8Array<ArrayBuffer>, native?: HmacFactory): Promise<HmacKey> {
  const raw = typeof secret === 'string' ? utf8(secret) : secret;
  if (native) return native(raw);
  const key = await importHmacKey(raw);
  return { sign: async (data) => toBase64Url(await hmac(key, data)) };
}

/** Compares two signatures in time that depends only on their length, never on where they differ. */
export function sameSignature(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
