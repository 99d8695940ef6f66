// requestState's HMAC-SHA256 on node:crypto: two one-shot hashes over the key's pads, the same text as WebCrypto's.
import { createHash, hash } from 'node:crypto';
import type { HmacKey } from '../crypto';

const BLOCK = 64; // SHA-256's block size, in bytes

/** About half the CPU of createHmac per state, which builds a stream object and initializes a digest each time (crypto.hash: Node 20.12+). */
export function nodeHmac(secret: Uint8Array): HmacKey {
  const key = secret.length > BLOCK ? createHash('sha256').update(secret).digest() : secret;
  let inner = Buffer.alloc(BLOCK + 1024); // the inner pad, then the data's UTF-8
  const outer = Buffer.alloc(BLOCK + 32); // the outer pad, then the inner hash
  for (let i = 0; i < BLOCK; i++) {
    inner[i] = (key[i] ?? 0) ^ 0x36;
    outer[i] = (key[i] ?? 0) ^ 0x5c;
  }
  return {
    sign(data) {
      // A UTF-16 code unit takes at most three bytes of UTF-8.
      if (BLOCK + data.length * 3 > inner.length) inner = Buffer.concat([inner.subarray(0, BLOCK)], BLOCK + data.length * 3);
      const length = inner.write(data, BLOCK, 'utf8');
      outer.write(hash('sha256', inner.subarray(0, BLOCK + length), 'hex'), BLOCK, 'hex');
      return hash('sha256', outer, 'base64url');
    },
  };
}
