// The keys of requestState: one per listed secret (VAULT_SECRET, else JWT_SECRET, newest first), each with its key id,
// an HMAC-SHA256 key that signs and an AES-256-GCM key that seals, all derived once when the server is built.
import {
  createAeadKey,
  createHmacKey,
  hkdfBytes,
  keyIdOf,
  type AeadFactory,
  type AeadKey,
  type HmacFactory,
  type HmacKey,
} from '../crypto';

interface StateKey {
  /** 8 characters of base64url naming the secret (an HMAC of a fixed label under it): safe to show to the client. */
  id: string;
  hmac: HmacKey;
  aes: AeadKey;
}

export interface StateKeys {
  /** The first listed: it signs or seals every new state. */
  primary: StateKey;
  /** Any listed key, by id: each opens the states it issued. */
  byId: ReadonlyMap<string, StateKey>;
}

// Purpose labels: the same secret gives unrelated keys for signing, sealing and the stores' records.
const SIGNING = 'parley requestState signing v1';
const SEALING = 'parley requestState sealing v1';

/** The runtime's own HMAC and AES-GCM, when its adapter passes them (else WebCrypto's). */
interface StateCrypto {
  hmac?: HmacFactory;
  aead?: AeadFactory;
}

async function stateKey(secret: string | Uint8Array<ArrayBuffer>, native: StateCrypto): Promise<StateKey> {
  const [id, signing, sealing] = await Promise.all([keyIdOf(secret), hkdfBytes(secret, SIGNING), hkdfBytes(secret, SEALING)]);
  return { id, hmac: await createHmacKey(signing, native.hmac), aes: await createAeadKey(sealing, native.aead) };
}

/** The keys of a secret list, newest first (at least one: a server with no secret passes its per-process random bytes). */
export async function createStateKeys(
  secrets: readonly (string | Uint8Array<ArrayBuffer>)[],
  native: StateCrypto = {},
): Promise<StateKeys> {
  if (secrets.length === 0) throw new Error('requestState needs at least one key');
  const keys = await Promise.all(secrets.map((secret) => stateKey(secret, native)));
  const byId = new Map<string, StateKey>();
  for (const key of keys) if (!byId.has(key.id)) byId.set(key.id, key);
  return { primary: keys[0]!, byId };
}
