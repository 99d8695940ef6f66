// Who is calling: auth info the host passed in, a bearer token checked by the server's verifier, or anonymous.
import type { ParleyServer } from '../engine';
import { ANONYMOUS, type AuthInfo, missingScopes } from '../model';
import { refuse, startingScopes } from './challenge';
import { resourceOf } from './resource';

/** The token of an `Authorization: Bearer` header; a token anywhere else (a query string, a body) is never read. */
function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  if (!header || header.length < 8 || header.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return header.slice(7).trim() || undefined;
}

/**
 * Resolves the caller from the headers alone (so before any body is read), or the response that refuses the request:
 * 401 when the server requires a token and none valid was sent, 403 when the token lacks `auth.requiredScopes`, 503
 * when the identity provider cannot be reached.
 */
export async function resolveCaller(request: Request, server: ParleyServer, given?: AuthInfo): Promise<AuthInfo | Response> {
  if (given) return requireServerScopes(server, request, given);
  const verify = server.verifyBearer;
  if (!verify) return ANONYMOUS;
  const token = bearerToken(request);
  if (token === undefined)
    return refuse(server, request, { status: 401, description: 'A bearer token is required', scopes: startingScopes(server) });
  const check = await verify(token, resourceOf(request, server), request);
  if ('refused' in check)
    return refuse(server, request, { status: 401, error: 'invalid_token', description: check.refused, scopes: startingScopes(server) });
  if ('unavailable' in check) {
    // The identity provider's outage is not the caller's fault: a 401 would send the client to sign in again for nothing.
    server.logger.error(`Could not check a bearer token: ${check.unavailable}`);
    return server.respond.json(
      { error: 'temporarily_unavailable', error_description: 'The identity provider could not be reached; try again shortly' },
      503,
      { 'retry-after': '10', 'cache-control': 'no-store' },
    );
  }
  return requireServerScopes(server, request, check.caller);
}

/** The caller, or 403 when it lacks `auth.requiredScopes` (a host's caller too: the requirement is the server's). */
function requireServerScopes(server: ParleyServer, request: Request, caller: AuthInfo): AuthInfo | Response {
  const required = server.config.auth?.requiredScopes ?? [];
  if (missingScopes(caller, required, server.config.auth?.scopeSatisfies).length === 0) return caller;
  const description = 'The token lacks a scope this server requires';
  return refuse(server, request, { status: 403, error: 'insufficient_scope', description, scopes: required });
}
