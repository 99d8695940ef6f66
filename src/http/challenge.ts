// The bearer challenge of a refused request (RFC 6750 §3, RFC 9728 §5.1): where the metadata is, which scopes to ask for.
import type { ParleyServer } from '../engine';
import type { InsufficientScopeError } from '../protocol';
import { authorizationServersOf, listedScopes, metadataUrlOf } from '../auth';
import { resourceOf } from './resource';

interface Refusal {
  /** 401: no token, or one that failed its checks; 403: a valid token without the scopes the request needs. */
  status: 401 | 403;
  /** Absent when no token was sent (RFC 6750 §3.1: then the challenge names no error). */
  error?: 'invalid_token' | 'insufficient_scope';
  description: string;
  /** Every scope the request needs (403), or those a client should ask for to begin with (401). */
  scopes: readonly string[];
}

// An auth-param's quoted string (RFC 9110 §5.6.4): a backslash before each '"' and '\'.
const quoted = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;

/** The scopes a 401 names: `auth.requiredScopes`, else all of `auth.scopesSupported`. */
export function startingScopes(server: ParleyServer): readonly string[] {
  const auth = server.config.auth;
  return auth?.requiredScopes.length ? auth.requiredScopes : (auth?.scopesSupported ?? []);
}

/** The 403 of an operation whose scopes the caller's token lacks: the client steps up with a token for `scopes`. */
export const refuseScope = (server: ParleyServer, request: Request, error: InsufficientScopeError): Response =>
  refuse(server, request, { status: 403, error: 'insufficient_scope', description: error.message, scopes: error.scopes });

/** The refusal as an answer: the challenge in WWW-Authenticate, the same error in a JSON body, never cached. */
export function refuse(server: ParleyServer, request: Request, refusal: Refusal): Response {
  const params: string[] = [];
  if (refusal.error) params.push(`error=${quoted(refusal.error)}`, `error_description=${quoted(refusal.description)}`);
  // Without an authorization server (a bare `secret`) there is no metadata to point to.
  if (authorizationServersOf(server).length > 0) params.push(`resource_metadata=${quoted(metadataUrlOf(resourceOf(request, server)))}`);
  const scopes = listedScopes(refusal.scopes);
  if (scopes.length > 0) params.push(`scope=${quoted(scopes.join(' '))}`);
  return server.respond.json({ error: refusal.error ?? 'unauthorized', error_description: refusal.description }, refusal.status, {
    'www-authenticate': params.length > 0 ? `Bearer ${params.join(', ')}` : 'Bearer',
    'cache-control': 'no-store',
  });
}
