// The keys of `auth: { jwksUrl }` (or the issuer's jwks_uri): the JWKS fetched on first use and kept ten minutes,
// fetched again (at most every 30 s) when a token names a key it lacks. Each key signs only for its own family: never
// HMAC, never 'none'. A JWKS that cannot be fetched is the identity provider's outage (503), not a bad token (401).
import { parseJson, readBody } from '../protocol';
import { JWS_ALGORITHMS, type JwtKey } from './jwt';

const MAX_AGE_MS = 10 * 60_000;
/** The most an answer of the identity provider may hold (metadata, JWKS, introspection, tokens): past it, its outage. */
const MAX_IDP_BYTES = 256 * 1024;
const COOLDOWN_MS = 30_000;
const TIMEOUT_MS = 5_000;

/** The identity provider (its metadata or its JWKS) could not be reached or answered nonsense: a 503, not a 401. */
export class IdpUnavailableError extends Error {
  override name = 'IdpUnavailableError';
}

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

/** GETs a JSON document of the identity provider: its JSON, or IdpUnavailableError saying why not (never a token's fault). */
export async function fetchIdpJson(url: URL, what: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    const headers = { accept: 'application/json', ...(init.headers as Record<string, string>) };
    const response = await fetch(url, { ...init, headers, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!response.ok) throw new Error(`it answered ${response.status}`);
    body = await readIdpJson(response);
  } catch (error) {
    throw new IdpUnavailableError(`${what} at ${url.href} could not be read: ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new IdpUnavailableError(`${what} at ${url.href} is not a JSON object`);
  return body as Record<string, unknown>;
}

async function fetchKeys(url: URL): Promise<JsonWebKey[]> {
  const body = await fetchIdpJson(url, 'The JWKS');
  if (!Array.isArray(body.keys)) throw new IdpUnavailableError(`The JWKS at ${url.href} has no keys`);
  return body.keys.filter((k): k is JsonWebKey => typeof k === 'object' && k !== null && typeof (k as JsonWebKey).kty === 'string');
}

/**
 * An answer of the identity provider as JSON, read with a cap as it streams in: reading stops past MAX_IDP_BYTES, and
 * the error says so. Throws on JSON that is not (as any JSON from outside: no `__proto__`, 128 levels at most).
 */
export async function readIdpJson(response: Response): Promise<unknown> {
  // Streamed whatever Content-Length says: it counts the bytes on the wire, before any decompression.
  const text = await readBody(new Response(response.body), MAX_IDP_BYTES);
  if (typeof text === 'string') return parseJson(text);
  throw new Error(text.status === 413 ? `its answer is larger than the ${MAX_IDP_BYTES / 1024} KB limit` : text.message);
}
