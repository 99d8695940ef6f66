// The bearer-token verifier of `auth`, made once when the server is built.
import { jwtVerify } from 'jose';
import type { BearerVerifier } from '../engine';
import type { FrontMcpConfig } from '../server';
import { remoteKeySet } from './jwks';

/**
 * The verifier for `auth: { secret }` or `auth: { jwksUrl }`, made once when the server is built. The HS256 key lives in
 * its closure only: the server's own copy of its config has the secret redacted.
 */
export function createBearerVerifier(auth: FrontMcpConfig['auth']): BearerVerifier | undefined {
  if (!auth) return undefined;
  const options = { issuer: auth.issuer, audience: auth.audience };
  const key = 'secret' in auth ? new TextEncoder().encode(auth.secret) : remoteKeySet(new URL(auth.jwksUrl));
  return async (token) => (await jwtVerify(token, key as Parameters<typeof jwtVerify>[1], options)).payload;
}
