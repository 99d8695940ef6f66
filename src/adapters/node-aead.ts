// requestState's AES-256-GCM on node:crypto: the same bytes as WebCrypto's, synchronously, with no thread-pool round trip.
import { createCipheriv, createDecipheriv, createSecretKey } from 'node:crypto';
import type { AeadKey } from '../crypto';

const TAG = 16;

export function nodeAead(raw: Uint8Array): AeadKey {
  const key = createSecretKey(raw); // a KeyObject: the bytes live in native memory, not a JS buffer
  return {
    seal(iv, text, aad) {
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG });
      cipher.setAAD(Buffer.from(aad, 'utf8'));
      const head = cipher.update(text, 'utf8');
      const tail = cipher.final();
      return Buffer.concat([head, tail, cipher.getAuthTag()]);
    },
    open(iv, data, tag, aad) {
      if (tag.length !== TAG) return undefined;
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG });
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(tag);
      try {
        // Nothing decrypted is returned until final() has checked the tag.
        const head = decipher.update(data);
        const tail = decipher.final();
        return (tail.length ? Buffer.concat([head, tail]) : head).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
