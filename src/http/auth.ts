// Who is calling: auth info the host passed in, a bearer token checked by the server's verifier, or anonymous.
import type { ParleyServer } from '../engine';
import { ANONYMOUS, type AuthInfo } from '../server';
import { resourceOf } from './resource';

// RFC 6750's shape, not JSON-RPC's: a bearer client reads the error from here and from WWW-Authenticate.
const unauthorized = (server: ParleyServer, description: string) =>
  server.respond.json({ error: 'invalid_token', error_description: description }, 401, {
    'www-authenticate': `Bearer error="invalid_token", error_description="${description}"`,
  });

/** The token of an `Authorization: Bearer` header; a token anywhere else (a query string, a body) is never read. */
function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  if (!header || header.length < 8 || header.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return header.slice(7).trim() || undefined;
}

/**
 * Resolves the caller from the headers alone (so before any body is read), or the response that refuses the request:
 * 401 when the server requires a token and none valid was sent, 503 when the identity provider cannot be reached.
 */
export async function resolveCaller(request: Request, server: ParleyServer, given?: AuthInfo): Promise<AuthInfo | Response> {
  if (given) return given;
  const verify = server.verifyBearer;
  if (!verify) return ANONYMOUS;
  const token = bearerToken(request);
  if (token === undefined) return unauthorized(server, 'A bearer token is required');
  const check = await verify(token, resourceOf(request, server));
  if ('caller' in check) return check.caller;
  if ('refused' in check) return unauthorized(server, check.refused);
  // The identity provider's outage is not the caller's fault: a 401 would send the client to sign in again for nothing.
  server.logger.error(`Could not check a bearer token: ${check.unavailable}`);
  return server.respond.json(
    { error: 'temporarily_unavailable', error_description: 'The identity provider could not be reached; try again shortly' },
    503,
    { 'retry-after': '10', 'cache-control': 'no-store' },
  );
}
