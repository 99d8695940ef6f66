// Scopes a caller lacks for an operation: the one comparison the HTTP gate and the engine's per-operation checks share.
import type { AuthInfo } from './tool-types';

/** Whether one granted scope covers a required one; the default is equality, `auth.scopeSatisfies` adds hierarchies. */
export type ScopeSatisfies = (granted: string, required: string) => boolean;

/**
 * The required scopes that none of the caller's scopes satisfies. The anonymous caller of a server without `auth` is
 * not checked (nothing there grants scopes); a host's caller without a `scopes` list has none.
 */
export function missingScopes(caller: AuthInfo, required: readonly string[], satisfies?: ScopeSatisfies): string[] {
  if (required.length === 0 || caller.anonymous) return [];
  const granted = caller.scopes ?? [];
  return required.filter((need) => !granted.some((have) => have === need || (satisfies?.(have, need) ?? false)));
}

// RFC 6749 §3.3's scope-token: printable ASCII without space, '"' or '\\'.
export const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Checks an operation's `scopes` option when the server starts: a list of scope tokens, or a function. */
export function checkScopesOption(scopes: unknown, where: string): void {
  if (scopes === undefined || typeof scopes === 'function') return;
  if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && SCOPE_TOKEN.test(s)))
    throw new Error(`${where}: scopes must be a list of scope strings (no spaces), e.g. ['tickets:write'], or a function of the arguments`);
}
