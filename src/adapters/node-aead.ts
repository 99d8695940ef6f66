// requestState's AES-256-GCM on node:crypto: the same bytes as WebCrypto's, synchronously, with no thread-pool round trip.
import { createCipheriv, createDecipheriv, createSecretKey } from 'node:crypto';
import type { AeadKey } from '../crypto';

const TAG = 16;

export function nodeAead(raw: Uint8Array): AeadKey {
  const key = createSecretKey(raw); // a KeyObject: the bytes live in native memory, not a JS buffer
  // The additional data is the same for every state of a key (`s1.<key id>`): its bytes are made once.
  let aadText = '';
  let aadBytes = Buffer.alloc(0);
  const aadOf = (aad: string) => (aad === aadText ? aadBytes : ((aadText = aad), (aadBytes = Buffer.from(aad, 'utf8'))));
  return {
    seal(iv, text, aad) {
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG });
      cipher.setAAD(aadOf(aad));
      const head = cipher.update(text, 'utf8');
      const tail = cipher.final(); // empty: GCM is a stream cipher
      const data = tail.length ? Buffer.concat([head, tail]) : head;
      return `${data.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
    },
    open(iv, data, tag, aad) {
      const tagBytes = Buffer.from(tag, 'base64url');
      if (tagBytes.length !== TAG) return undefined;
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG });
      decipher.setAAD(aadOf(aad));
      decipher.setAuthTag(tagBytes);
      try {
        // Nothing decrypted is returned until final() has checked the tag.
        const head = decipher.update(Buffer.from(data, 'base64url'));
        const tail = decipher.final();
        return (tail.length ? Buffer.concat([head, tail]) : head).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
