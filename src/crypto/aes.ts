// AES-256-GCM on crypto.subtle: seal bytes into { iv, tag, data } (base64url) and open them again; JSON per owner key,
// under a secret list (newest first): each sealed value names the key id of the secret that sealed it.
import { fromBase64Url, fromUtf8, toBase64Url, utf8 } from './encoding';
import { cacheKeyOf, keyIdOf, secretList } from './keyring';
import { randomBytes } from './keys';

export interface AesSealed {
  alg: 'A256GCM';
  /** The key id of the secret that sealed it; absent on records sealed before key ids (any listed secret is tried). */
  kid?: string;
  iv: string;
  tag: string;
  data: string;
}

const TAG_BYTES = 16;

export async function aesSeal(key: CryptoKey, plaintext: Uint8Array<ArrayBuffer>): Promise<AesSealed> {
  const iv = randomBytes(12);
  const out = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, tagLength: TAG_BYTES * 8 }, key, plaintext));
  // WebCrypto appends the tag to the ciphertext; the record keeps them apart.
  return {
    alg: 'A256GCM',
    iv: toBase64Url(iv),
    tag: toBase64Url(out.subarray(out.length - TAG_BYTES)),
    data: toBase64Url(out.subarray(0, out.length - TAG_BYTES)),
  };
}

/** Returns the plaintext, or undefined when the key is wrong or the record was changed. */
async function aesOpen(key: CryptoKey, sealed: AesSealed): Promise<Uint8Array | undefined> {
  const iv = fromBase64Url(sealed.iv);
  const tag = fromBase64Url(sealed.tag);
  const data = fromBase64Url(sealed.data);
  if (sealed.alg !== 'A256GCM' || !iv || !tag || !data || tag.length !== TAG_BYTES) return undefined;
  const joined = new Uint8Array(data.length + TAG_BYTES);
  joined.set(data);
  joined.set(tag, data.length);
  try {
    return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv, tagLength: TAG_BYTES * 8 }, key, joined));
  } catch {
    return undefined;
  }
}

/** What a record key is derived for; another purpose gets another key from the same secret and owner. */
const ELICITATION_STORE_PURPOSE = 'parley elicitation store v1';

/** One listed secret: its id, a digest that names it in caches, and an HKDF base key (non-extractable: the secret stays out of reach). */
interface RingKey {
  id: string;
  digest: string;
  base: CryptoKey;
}
interface Ring {
  keys: RingKey[];
  byId: Map<string, RingKey>;
}

const RING_CACHE_LIMIT = 16;
const rings = new Map<string, Promise<Ring>>();

async function buildRing(setting: string): Promise<Ring> {
  const secrets = secretList(setting);
  if (secrets.length === 0) throw new Error('An encryption secret setting names no secret');
  const keys = await Promise.all(
    secrets.map(
      async (secret): Promise<RingKey> => ({
        id: await keyIdOf(secret),
        digest: await cacheKeyOf('parley secret', secret),
        base: await crypto.subtle.importKey('raw', utf8(secret), 'HKDF', false, ['deriveKey']),
      }),
    ),
  );
  const byId = new Map<string, RingKey>();
  for (const key of keys) if (!byId.has(key.id)) byId.set(key.id, key);
  return { keys, byId };
}

/** The secrets a setting lists, derived once per setting and cached under a digest of it, never under the setting itself. */
let last: { setting: string; ring: Promise<Ring> } | undefined;
async function ringOf(setting: string): Promise<Ring> {
  // Fast path: the setting used last (the config holds that string anyway), so a record costs no SHA-256 to find its
  // ring; on Node that digest is a thread-pool round trip, about half of sealing or opening a small record.
  if (last?.setting === setting) return last.ring;
  const id = await cacheKeyOf('parley ring', setting);
  let ring = rings.get(id);
  if (!ring) {
    ring = buildRing(setting).catch((error: unknown) => {
      rings.delete(id);
      throw error;
    });
    if (rings.size >= RING_CACHE_LIMIT) rings.delete(rings.keys().next().value!);
    rings.set(id, ring);
  }
  const mine = (last = { setting, ring });
  ring.catch(() => last === mine && (last = undefined));
  return ring;
}

const KEY_CACHE_LIMIT = 1_000;
const keyCache = new Map<string, Promise<CryptoKey>>();

/** HKDF-SHA256 over the secret, with the owner id (a session id, a subject) as salt: each owner has a key of its own. Cached, least recently used dropped first. */
function keyFor(ring: RingKey, ownerId: string, purpose: string): Promise<CryptoKey> {
  const id = JSON.stringify([ring.digest, purpose, ownerId]);
  let key = keyCache.get(id);
  if (key)
    keyCache.delete(id); // re-inserted below as the most recent
  else
    key = crypto.subtle
      .deriveKey(
        { name: 'HKDF', hash: 'SHA-256', salt: utf8(ownerId), info: utf8(purpose) },
        ring.base,
        { name: 'AES-GCM', length: 256 },
        false,
        ['encrypt', 'decrypt'],
      )
      .catch((error: unknown) => {
        keyCache.delete(id);
        throw error;
      });
  keyCache.set(id, key);
  if (keyCache.size > KEY_CACHE_LIMIT) keyCache.delete(keyCache.keys().next().value!);
  return key;
}

/**
 * Encrypts a JSON value for one owner with AES-256-GCM, under the first secret the setting lists, and names its key id.
 * @example const sealed = await encryptJson('new-secret,old-secret', sessionId, { message, schema }); // { alg: 'A256GCM', kid, iv, tag, data }
 */
export async function encryptJson(
  secret: string,
  ownerId: string,
  value: unknown,
  purpose = ELICITATION_STORE_PURPOSE,
): Promise<AesSealed> {
  const primary = (await ringOf(secret)).keys[0]!;
  return { ...(await aesSeal(await keyFor(primary, ownerId, purpose), utf8(JSON.stringify(value)))), kid: primary.id };
}

/**
 * The value encryptJson sealed, or undefined for a secret no longer listed, another owner, a changed record or anything
 * not sealed. A record names its key; one sealed before key ids is tried under each listed secret.
 */
export async function decryptJson(secret: string, ownerId: string, sealed: unknown, purpose = ELICITATION_STORE_PURPOSE): Promise<unknown> {
  if (typeof sealed !== 'object' || sealed === null) return undefined;
  const { alg, kid, iv, tag, data } = sealed as Record<string, unknown>;
  if (alg !== 'A256GCM' || typeof iv !== 'string' || typeof tag !== 'string' || typeof data !== 'string') return undefined;
  if (kid !== undefined && typeof kid !== 'string') return undefined;
  const ring = await ringOf(secret);
  const candidates = kid === undefined ? ring.keys : [ring.byId.get(kid)].filter((k) => k !== undefined);
  for (const key of candidates) {
    const plain = await aesOpen(await keyFor(key, ownerId, purpose), { alg, iv, tag, data });
    if (!plain) continue;
    try {
      return JSON.parse(fromUtf8(plain));
    } catch {
      return undefined;
    }
  }
  return undefined;
}
