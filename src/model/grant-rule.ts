// A tool's standing-approval rule (`grant`), checked where the tool is declared: one that would match every call of
// the tool is refused at startup. Standing approvals themselves live with the inbox (inbox/grants.ts).
import type { GrantRule } from './tool-types';

/** The longest a grant may stand. */
export const MAX_GRANT_MS = 90 * 86_400_000;

/**
 * Why a rule is refused, or undefined: one that matches every call (no argument named, or one the tool does not take,
 * which no call has), or that stands less than a second or longer than 90 days.
 */
export function grantRuleProblem(rule: unknown, inputSchema: Record<string, unknown>): string | undefined {
  const given = rule as Partial<GrantRule> | null;
  if (typeof given !== 'object' || given === null) return 'grant must be { match: [argument names], forMs }';
  const match = given.match;
  if (!Array.isArray(match) || match.length === 0)
    return "grant.match names no argument, so a grant would answer every call of it: name the arguments a grant is for (grant: { match: ['customer'], forMs })";
  const properties = (inputSchema.properties ?? {}) as Record<string, unknown>;
  const taken = Object.keys(properties);
  for (const name of match)
    if (typeof name !== 'string' || !Object.hasOwn(properties, name))
      return `grant.match names ${JSON.stringify(name)}, which is not one of its arguments (${taken.join(', ') || 'it takes none'})`;
  if (typeof given.forMs !== 'number' || !Number.isInteger(given.forMs) || given.forMs < 1000 || given.forMs > MAX_GRANT_MS)
    return `grant.forMs must be whole milliseconds from 1000 to ${MAX_GRANT_MS} (90 days)`;
  return undefined;
}
