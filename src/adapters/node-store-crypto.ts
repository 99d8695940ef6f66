// Sealed store values on node:crypto (tasks): WebCrypto's digests and records, synchronously, with no thread-pool
// round trip per SHA-256, HKDF or AES-GCM as WebCrypto's has on Node.
import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hash, hkdfSync, randomFillSync, type KeyObject } from 'node:crypto';
import { secretList, type AesSealed, type StoreCrypto } from '../crypto';
import { nodeAead } from './node-aead';
import { nodeHmac } from './node-hmac';

const TAG = 16;
const IV = 12;
/** crypto/keyring.ts's key id: the first 6 bytes of HMAC-SHA256(secret, this label). */
const KEY_ID_LABEL = 'parley key id v1';

interface RingKey {
  id: string;
  secret: KeyObject;
  /** Keys derived from this secret, by purpose and owner: least recently used dropped first. */
  derived: Map<string, KeyObject>;
}

/** Derived keys kept per secret: a task's values are opened several times each (every poll opens its record). */
const DERIVED_LIMIT = 1_000;

/** The secrets of the setting used last, made once: a server has one setting, and each value costs no look-up. */
let last: { setting: string; keys: RingKey[] } | undefined;
function ringOf(setting: string): RingKey[] {
  if (last?.setting === setting) return last.keys;
  const keys = secretList(setting).map((secret) => ({
    id: createHmac('sha256', secret).update(KEY_ID_LABEL).digest().subarray(0, 6).toString('base64url'),
    secret: createSecretKey(Buffer.from(secret, 'utf8')), // native memory, out of a heap snapshot's strings
    derived: new Map<string, KeyObject>(),
  }));
  if (keys.length === 0) throw new Error('An encryption secret setting names no secret');
  last = { setting, keys };
  return keys;
}

/** HKDF-SHA256 as crypto/aes.ts's deriveKey: the owner id the salt, the purpose the info, 32 bytes. Cached. */
function keyOf(ring: RingKey, ownerId: string, purpose: string): KeyObject {
  const id = `${purpose}\u0000${ownerId}`;
  let key = ring.derived.get(id);
  if (key)
    ring.derived.delete(id); // re-inserted below as the most recent
  else key = createSecretKey(Buffer.from(hkdfSync('sha256', ring.secret, ownerId, purpose, 32)));
  ring.derived.set(id, key);
  if (ring.derived.size > DERIVED_LIMIT) ring.derived.delete(ring.derived.keys().next().value!);
  return key;
}

export const NODE_STORE_CRYPTO: StoreCrypto = {
  digest: (text) => hash('sha256', text, 'base64url'),
  hkdf: (secret, salt, info) => new Uint8Array(hkdfSync('sha256', secret, salt, info, 32)),
  hmac: nodeHmac,
  aead: nodeAead,

  seal(secret, ownerId, value, purpose): AesSealed {
    const primary = ringOf(secret)[0]!;
    const iv = randomFillSync(Buffer.alloc(IV));
    const cipher = createCipheriv('aes-256-gcm', keyOf(primary, ownerId, purpose), iv, { authTagLength: TAG });
    const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return {
      alg: 'A256GCM',
      iv: iv.toString('base64url'),
      tag: cipher.getAuthTag().toString('base64url'),
      data: data.toString('base64url'),
      kid: primary.id,
    };
  },

  async open(secret, ownerId, sealed, purpose) {
    if (typeof sealed !== 'object' || sealed === null) return undefined;
    const { alg, kid, iv, tag, data } = sealed as Record<string, unknown>;
    if (alg !== 'A256GCM' || typeof iv !== 'string' || typeof tag !== 'string' || typeof data !== 'string') return undefined;
    if (kid !== undefined && typeof kid !== 'string') return undefined;
    const ring = ringOf(secret);
    // A record names its key; one sealed before key ids is tried under each listed secret.
    const candidates = kid === undefined ? ring : ring.filter((key) => key.id === kid).slice(0, 1);
    const [ivBytes, tagBytes, dataBytes] = [Buffer.from(iv, 'base64url'), Buffer.from(tag, 'base64url'), Buffer.from(data, 'base64url')];
    if (ivBytes.length !== IV || tagBytes.length !== TAG) return undefined;
    for (const key of candidates) {
      let plain: string;
      try {
        const decipher = createDecipheriv('aes-256-gcm', keyOf(key, ownerId, purpose), ivBytes, { authTagLength: TAG });
        decipher.setAuthTag(tagBytes);
        // Nothing decrypted is used until final() has checked the tag.
        plain = Buffer.concat([decipher.update(dataBytes), decipher.final()]).toString('utf8');
      } catch {
        continue;
      }
      try {
        return JSON.parse(plain);
      } catch {
        return undefined;
      }
    }
    return undefined;
  },
};
