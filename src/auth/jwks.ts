// The keys of `auth: { jwksUrl }` (or the issuer's jwks_uri): the JWKS fetched on first use and kept ten minutes,
// fetched again (at most every 30 s) when a token names a key it lacks. Each key signs only for its own family: never
// HMAC, never 'none'. A JWKS that cannot be fetched is the identity provider's outage (503), not a bad token (401).
import { fetchIdpJson, IdpUnavailableError } from './idp-fetch';
import { JWS_ALGORITHMS, type JwtKey } from './jwt';

const MAX_AGE_MS = 10 * 60_000;
const COOLDOWN_MS = 30_000;

/** The algorithms a JWKS may sign with: the asymmetric ones, each verified by a key of its own family (kty). */
export const JWKS_ALGORITHMS = [...JWS_ALGORITHMS].filter(([, algorithm]) => algorithm.kty !== 'oct').map(([alg]) => alg);

/**
 * verifyJwt's key lookup for a JWKS URL: the one key that the token's header names and may use, as the JWK itself
 * allows (its `alg`, `use` and `key_ops`).
 */
export function remoteKeySet(url: URL | (() => Promise<URL>)): JwtKey {
  let keys: JsonWebKey[] = [];
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<void> | undefined;
  const imported = new Map<string, Promise<CryptoKey>>(); // by the key's place in the JWKS and the algorithm
  const load = () =>
    (loading ??= (url instanceof URL ? Promise.resolve(url) : url())
      .then(fetchKeys)
      .then((fetched) => {
        keys = fetched;
        fetchedAt = Date.now();
        imported.clear();
      })
      .finally(() => {
        loading = undefined;
      }));
  return async (header) => {
    const algorithm = JWKS_ALGORITHMS.includes(header.alg) ? JWS_ALGORITHMS.get(header.alg) : undefined;
    if (!algorithm) throw new Error(`A token signed with ${header.alg} is not accepted with a JWKS`);
    const usable = () =>
      keys.filter(
        (k) =>
          k.kty === algorithm.kty &&
          (header.kid === undefined || (k as { kid?: unknown }).kid === header.kid) &&
          (k.alg === undefined || k.alg === header.alg) &&
          (k.use === undefined || k.use === 'sig') &&
          (k.key_ops === undefined || (Array.isArray(k.key_ops) && k.key_ops.includes('verify'))),
      );
    const age = Date.now() - fetchedAt;
    if (age > MAX_AGE_MS || (usable().length === 0 && age > COOLDOWN_MS)) await load();
    const found = usable();
    if (found.length !== 1)
      throw new Error(
        found.length === 0 ? 'No key of the JWKS matches the token' : 'Several keys of the JWKS match the token, which names none (kid)',
      );
    const key = found[0]!;
    const id = `${keys.indexOf(key)} ${header.alg}`;
    let pending = imported.get(id);
    // alg and use were matched above; WebCrypto checks key_ops, and refuses a private key for 'verify'.
    if (!pending)
      imported.set(
        id,
        (pending = crypto.subtle.importKey('jwk', { ...key, alg: undefined, use: undefined }, algorithm.key, false, ['verify'])),
      );
    return pending;
  };
}

async function fetchKeys(url: URL): Promise<JsonWebKey[]> {
  const body = await fetchIdpJson(url, 'The JWKS');
  if (!Array.isArray(body.keys)) throw new IdpUnavailableError(`The JWKS at ${url.href} has no keys`);
  return body.keys.filter((k): k is JsonWebKey => typeof k === 'object' && k !== null && typeof (k as JsonWebKey).kty === 'string');
}
