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
