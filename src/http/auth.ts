// Who is calling: auth info the host passed in, a bearer JWT verified with jose, or anonymous.
import type { ParleyServer } from '../engine';
import { ANONYMOUS, type AuthInfo } from '../server';

// RFC 6750's shape, not JSON-RPC's: a bearer client reads the error from here and from WWW-Authenticate.
const unauthorized = (server: ParleyServer, description: string) =>
  server.respond.json({ error: 'invalid_token', error_description: description }, 401, {
    'www-authenticate': `Bearer error="invalid_token", error_description="${description}"`,
  });

/** Resolves the caller, or a 401 response when the server requires a token and none valid was sent. */
export async function resolveCaller(request: Request, server: ParleyServer, given?: AuthInfo): Promise<AuthInfo | Response> {
  if (given) return given;
  const verify = server.verifyBearer;
  if (!verify) return ANONYMOUS;
  const header = request.headers.get('authorization');
  if (!header?.toLowerCase().startsWith('bearer ')) return unauthorized(server, 'A bearer token is required');
  const token = header.slice(7).trim();
  try {
    const claims = await verify(token);
    if (typeof claims.sub !== 'string') return unauthorized(server, 'The token has no subject');
    const clientId = (claims.client_id ?? claims.azp) as string | undefined;
    return { user: { ...claims, sub: claims.sub, iss: claims.iss }, clientId, token };
  } catch {
    return unauthorized(server, 'The token could not be verified');
  }
}
