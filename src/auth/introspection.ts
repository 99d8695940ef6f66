// parley-mcp/introspection: opaque tokens checked with the authorization server's RFC 7662 introspection endpoint, as
// an `auth.verify`. Its own import, so a Worker that does not use it does not carry it.
import { callerFromClaims, type TokenVerify } from '../model';
import { fetchIdpJson } from './idp-fetch';
import { createTokenCache } from './token-cache';

export { IdpUnavailableError } from './idp-fetch';

export interface IntrospectionOptions {
  /** The introspection endpoint (the `introspection_endpoint` of the server's metadata). */
  url: string;
  /** This server's client credentials at the authorization server (HTTP Basic, RFC 7662 §2.1). */
  clientId: string;
  clientSecret: string;
  /** The audience an active token must name, if it names one: by default the resource; `false` takes any. */
  audience?: string | string[] | false;
  /** How long an active token's answer is kept, in ms (never past its `exp`); default 60 s. */
  cacheMs?: number;
}

const trimSlash = (value: string) => (value.endsWith('/') ? value.slice(0, -1) : value);

/**
 * An `auth.verify` that asks the introspection endpoint about each token (answers kept `cacheMs`): an inactive token,
 * an expired one or one for another audience is refused; an endpoint that cannot be reached is a 503.
 * @example auth: { issuer: 'https://idp.example', verify: introspection({ url: 'https://idp.example/introspect', clientId: 'mcp', clientSecret: process.env.INTROSPECTION_SECRET! }) }
 */
export function introspection(options: IntrospectionOptions): TokenVerify {
  const endpoint = new URL(options.url);
  const basic = `Basic ${btoa(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`)}`;
  const cacheMs = options.cacheMs ?? 60_000;
  const cache = createTokenCache<Record<string, unknown>>();
  return async (token, _request, { resource }) => {
    const cached = await cache.get(token);
    let claims = cached.value;
    if (!claims) {
      claims = await ask(endpoint, basic, token);
      if (claims.active !== true) return undefined;
      const exp = typeof claims.exp === 'number' ? claims.exp * 1000 : Number.POSITIVE_INFINITY;
      cache.set(cached.key, claims, Math.min(Date.now() + cacheMs, exp));
    }
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now()) return undefined;
    const audience = options.audience ?? [resource];
    if (audience !== false && claims.aud !== undefined) {
      const given = [claims.aud].flat();
      if (!given.some((a) => typeof a === 'string' && [audience].flat().some((e) => trimSlash(a) === trimSlash(e)))) return undefined;
    }
    return callerFromClaims(claims, token, resource);
  };
}

/** POSTs the token (RFC 7662 §2.1); an answer that is not a JSON object, or none, is the server's outage (503). */
const ask = (endpoint: URL, basic: string, token: string) =>
  fetchIdpJson(endpoint, 'The introspection endpoint', {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
  });
