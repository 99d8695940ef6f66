// The scopes an operation (a tool, a prompt, a resource) declares, checked against the caller before its handler runs.
import { InsufficientScopeError } from '../protocol';
import { type AuthInfo, missingScopes, type ScopeRequirement } from '../model';
import type { ParleyServer } from './server';

/**
 * Throws InsufficientScopeError when the caller lacks a scope `requirement` names. Called before every run of the
 * handler: a first call, each input_required retry, a fallback re-run. The error names every scope the operation
 * needs (the server's `requiredScopes` too), so the client asks for one token that covers it.
 */
export function requireScopes(
  server: ParleyServer,
  auth: AuthInfo,
  requirement: ScopeRequirement | undefined,
  args: Record<string, unknown>,
  what: string,
): void {
  // Fast path: most operations declare no scopes.
  if (requirement === undefined) return;
  const needed = typeof requirement === 'function' ? (requirement(args, auth) ?? []) : requirement;
  if (missingScopes(auth, needed, server.config.auth?.scopeSatisfies).length === 0) return;
  const all = [...new Set([...(server.config.auth?.requiredScopes ?? []), ...needed])];
  throw new InsufficientScopeError(`Insufficient scope: ${what} needs ${all.join(' ')}`, all);
}
