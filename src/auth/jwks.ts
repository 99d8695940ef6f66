// The keys of `auth: { jwksUrl }` (or the issuer's jwks_uri): the JWKS fetched on first use and kept ten minutes,
// fetched again (at most every 30 s) when a token names a key it lacks. jose's local key set picks and imports the key
// (the header's kid and alg, the JWK's own alg, use, key_ops and curve); each key signs only for its own family, never
// HMAC, never 'none'. A JWKS that cannot be fetched is the identity provider's outage (503), not a bad token (401).
import { createLocalJWKSet, type JWSHeaderParameters } from 'jose';
import { fetchIdpJson, IdpUnavailableError } from './idp-fetch';
import { JWS_ALGORITHMS, type JwtKey } from './jwt';

const MAX_AGE_MS = 10 * 60_000;
const COOLDOWN_MS = 30_000;

/** The algorithms a JWKS may sign with: the asymmetric ones, each verified by a key of its own family (kty). */
export const JWKS_ALGORITHMS = [...JWS_ALGORITHMS].filter(([, algorithm]) => algorithm.kty !== 'oct').map(([alg]) => alg);

type KeySet = ReturnType<typeof createLocalJWKSet>;

/**
 * verifyJwt's key lookup for a JWKS URL: the one key that the token's header names and may use, as the JWK itself
 * allows (its `alg`, `use` and `key_ops`); a token that names none is verified by the one key that may, if only one may.
 */
export function remoteKeySet(url: URL | (() => Promise<URL>)): JwtKey {
  let keys: KeySet | undefined;
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<void> | undefined;
  const load = () =>
    (loading ??= (url instanceof URL ? Promise.resolve(url) : url())
      .then(fetchKeys)
      .then((fetched) => {
        keys = fetched;
        fetchedAt = Date.now();
      })
      .finally(() => {
        loading = undefined;
      }));
  return async (header) => {
    if (!JWKS_ALGORITHMS.includes(header.alg)) throw new Error(`A token signed with ${header.alg} is not accepted with a JWKS`);
    const wanted = header as JWSHeaderParameters;
    if (Date.now() - fetchedAt > MAX_AGE_MS) await load();
    try {
      return await keys!(wanted);
    } catch (error) {
      // A key the JWKS lacks may be a new one: fetched again, unless it was fetched moments ago.
      if ((error as { code?: unknown }).code !== 'ERR_JWKS_NO_MATCHING_KEY' || Date.now() - fetchedAt <= COOLDOWN_MS) throw error;
    }
    await load();
    return keys!(wanted);
  };
}

async function fetchKeys(url: URL): Promise<KeySet> {
  const body = await fetchIdpJson(url, 'The JWKS');
  if (!Array.isArray(body.keys)) throw new IdpUnavailableError(`The JWKS at ${url.href} has no keys`);
  const keys = body.keys.filter((k) => typeof k === 'object' && k !== null && typeof (k as JsonWebKey).kty === 'string');
  return createLocalJWKSet({ keys });
}
