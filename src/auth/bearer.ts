// The bearer-token verifier of `auth`, made once when the server is built: signature, algorithm, issuer, expiry, audience.
import type { BearerVerifier } from '../engine';
import { type HmacFactory, randomBytes, utf8 } from '../crypto';
import { type AuthOptions, callerFromClaims, toCaller } from '../model';
import { discoverJwksUrl } from './discovery';
import { IdpUnavailableError } from './idp-fetch';
import { JWKS_ALGORITHMS, remoteKeySet } from './jwks';
import { type JwtFields, type JwtKey, verifyJwt } from './jwt';
import { createTokenCache } from './token-cache';

type Auth = AuthOptions;

// One trailing slash is tolerated on either side: https://mcp.example/mcp and https://mcp.example/mcp/ name one resource.
const trimSlash = (value: string) => (value.endsWith('/') ? value.slice(0, -1) : value);

function audienceMatches(aud: unknown, expected: readonly string[]): boolean {
  const given = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  return given.some((a) => typeof a === 'string' && expected.some((e) => trimSlash(a) === trimSlash(e)));
}

/** The key (or key lookup) and the algorithms it may verify: HS256 alone for a secret, asymmetric ones for a JWKS. */
function keyOf(auth: Auth): { key: JwtKey; algorithms: string[] } {
  if (auth.secret !== undefined) {
    const secret = utf8(auth.secret);
    let imported: Promise<CryptoKey> | undefined;
    const key = () => (imported ??= crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']));
    return { key, algorithms: ['HS256'] };
  }
  if (auth.jwksUrl !== undefined) return { key: remoteKeySet(new URL(auth.jwksUrl)), algorithms: JWKS_ALGORITHMS };
  // Each issuer's JWKS, found from its metadata on first use; a failed discovery is tried again by the next token.
  const keySets = new Map<string, JwtKey>();
  for (const issuer of [auth.issuer ?? []].flat()) {
    let found: Promise<URL> | undefined;
    const jwksUrl = () =>
      (found ??= discoverJwksUrl(issuer).catch((error: unknown) => {
        found = undefined;
        throw error;
      }));
    keySets.set(issuer, remoteKeySet(jwksUrl));
  }
  const key: JwtKey = (header, claims) => {
    const keys = typeof claims.iss === 'string' ? keySets.get(claims.iss) : undefined;
    if (!keys) throw new Error('The token names an issuer this server does not trust');
    return keys(header, claims);
  };
  return { key, algorithms: JWKS_ALGORITHMS };
}

/**
 * The verifier for `auth`, or undefined without it: verifyJwt (auth/jwt.ts, jose behind Parley's refusals) with the key and algorithms of `auth`. The
 * HS256 key lives in its closure only: the server's own copy of its config has the secret redacted. Verified tokens are
 * kept until they expire; the audience is checked on every request, since the resource is the request's.
 */
export function createBearerVerifier(auth: AuthOptions | undefined, hmac?: HmacFactory): BearerVerifier | undefined {
  if (!auth) return undefined;
  if (auth.verify) return customVerifier(auth.verify);
  const { key, algorithms } = keyOf(auth);
  const checks = { algorithms, issuer: auth.issuer, clockToleranceSec: auth.clockToleranceSec };
  // The audience: as configured; else the resource. A shared secret is this server's own, so its tokens are checked
  // against the resource only when one is configured (`parley token` signs tokens with no audience).
  const audience =
    auth.audience === false
      ? undefined
      : auth.audience !== undefined
        ? [auth.audience].flat()
        : auth.secret !== undefined && auth.resource === undefined
          ? undefined
          : 'resource';
  // On Node the cache's key is node:crypto's HMAC under a key of this process (synchronous): WebCrypto's digest is a
  // thread-pool round trip that held every signed-in call far longer than the verifying it saves.
  const cache = createTokenCache<JwtFields>({ digest: hmac?.(randomBytes(32)).sign });
  return async (token, resource) => {
    const cached = await cache.get(token);
    let claims = cached.value;
    if (!claims) {
      try {
        claims = await verifyJwt(token, key, checks);
      } catch (error) {
        if (error instanceof IdpUnavailableError) return { unavailable: error.message };
        return { refused: 'The token could not be verified' };
      }
      cache.set(cached.key, claims, ((claims.exp as number) + auth.clockToleranceSec) * 1000);
    }
    const expected = audience === 'resource' ? [resource] : audience;
    if (expected && !audienceMatches(claims.aud, expected)) return { refused: 'The token was issued for another resource' };
    const caller = callerFromClaims(claims, token, resource);
    return caller ? { caller } : { refused: 'The token has no subject' };
  };
}

/** `auth.verify`: the user's check; a throw is a refusal, unless it says the identity provider could not be asked. */
function customVerifier(verify: NonNullable<Auth['verify']>): BearerVerifier {
  return async (token, resource, request) => {
    let given: unknown;
    try {
      given = await verify(token, request, { resource });
    } catch (error) {
      if (error instanceof IdpUnavailableError) return { unavailable: error.message };
      return { refused: 'The token could not be verified' };
    }
    const caller = toCaller(given, token, resource);
    if (!caller) return { refused: 'The token could not be verified' };
    if (caller.expiresAt !== undefined && caller.expiresAt * 1000 <= Date.now()) return { refused: 'The token has expired' };
    return { caller };
  };
}
