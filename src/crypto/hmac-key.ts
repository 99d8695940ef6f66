// The key that signs requestState: WebCrypto's HMAC-SHA256 on every runtime, or a faster one a runtime adapter supplies.
import { utf8 } from './encoding';
import { hmac, hmacVerify, importHmacKey } from './keys';

/** HMAC-SHA256 under one secret; either implementation gives the same bytes, so states move between runtimes. */
export interface HmacKey {
  sign(data: string): Promise<Uint8Array<ArrayBuffer>> | Uint8Array<ArrayBuffer>;
  verify(signature: Uint8Array<ArrayBuffer>, data: string): Promise<boolean> | boolean;
}

export type HmacFactory = (secret: Uint8Array<ArrayBuffer>) => HmacKey;

let native: HmacFactory | undefined;

/** parley/node registers node:crypto's HMAC: synchronous, and several times cheaper on Node than WebCrypto's thread-pool round trip. */
export function useNativeHmac(factory: HmacFactory): void {
  native = factory;
}

export async function createHmacKey(secret: string | Uint8Array<ArrayBuffer>): Promise<HmacKey> {
  const raw = typeof secret === 'string' ? utf8(secret) : secret;
  if (native) return native(raw);
  const key = await importHmacKey(raw);
  return { sign: (data) => hmac(key, data), verify: (signature, data) => hmacVerify(key, signature, data) };
}
