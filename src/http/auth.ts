// Who is calling: auth info the host passed in, a bearer JWT verified with jose, or anonymous.
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { FrontMcpConfig } from '../server/config';
import type { ParleyServer } from '../server/instance';
import type { AuthInfo } from '../server/tool-types';
import { jsonResponse } from './respond';

export const ANONYMOUS: AuthInfo = Object.freeze({ user: Object.freeze({ sub: 'anonymous' }), anonymous: true }) as AuthInfo;

/** Verifies a bearer JWT and resolves with its claims; rejects when it does not verify. */
export type BearerVerifier = (token: string) => Promise<JWTPayload>;

/**
 * The verifier for `auth: { secret }` or `auth: { jwksUrl }`, made once when the server is built. The HS256 key lives in
 * its closure only: the server's own copy of its config has the secret redacted.
 */
export function createBearerVerifier(auth: FrontMcpConfig['auth']): BearerVerifier | undefined {
  if (!auth) return undefined;
  const options = { issuer: auth.issuer, audience: auth.audience };
  const key = 'secret' in auth ? new TextEncoder().encode(auth.secret) : createRemoteJWKSet(new URL(auth.jwksUrl));
  return async (token) => (await jwtVerify(token, key as Parameters<typeof jwtVerify>[1], options)).payload;
}

const unauthorized = (description: string) =>
  jsonResponse({ error: 'invalid_token', error_description: description }, 401, {
    'www-authenticate': `Bearer error="invalid_token", error_description="${description}"`,
  });

/** Resolves the caller, or a 401 response when the server requires a token and none valid was sent. */
export async function resolveCaller(request: Request, server: ParleyServer, given?: AuthInfo): Promise<AuthInfo | Response> {
  if (given) return given;
  const verify = server.verifyBearer;
  if (!verify) return ANONYMOUS;
  const header = request.headers.get('authorization');
  if (!header?.toLowerCase().startsWith('bearer ')) return unauthorized('A bearer token is required');
  const token = header.slice(7).trim();
  try {
    const claims = await verify(token);
    if (typeof claims.sub !== 'string') return unauthorized('The token has no subject');
    const clientId = (claims.client_id ?? claims.azp) as string | undefined;
    return { user: { ...claims, sub: claims.sub, iss: claims.iss }, clientId, token };
  } catch {
    return unauthorized('The token could not be verified');
  }
}
