// A config that does not validate, in words a person can act on: each wrong field by its whole path, into the branch of
// an either-or option the value was written for, and for a value that is missing, the usual cause (an unset variable).
import type * as z from 'zod';

type Issue = z.core.$ZodIssue;

const UNSET =
  ' (it is undefined: if your code reads it from an environment variable, that variable is not set: set it, or write the value)';

/** How deep the value went into a branch of a union before it failed: deeper is the branch it was written for. */
const depth = (issues: Issue[]) => Math.max(...issues.map((i) => i.path.length));

/** The branch of a union the value came closest to: the fewest problems, then the deepest; none when all fail at its top. */
function closestBranch(branches: Issue[][]): Issue[] | undefined {
  const [best] = branches.filter((b) => b.length > 0).sort((a, b) => a.length - b.length || depth(b) - depth(a));
  return best && depth(best) > 0 ? best : undefined;
}

/**
 * One line per wrong field: `auth.secret: Invalid input: expected string, received undefined (it is undefined: …)`,
 * where zod alone says `auth: Invalid input`. `base` is the path of the value that was checked.
 * @example configIssues(parsed.error.issues, ['elicitation', 'persistent'])
 */
export function configIssues(issues: readonly Issue[], base: readonly PropertyKey[] = []): string[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...issue.path];
    const branch = issue.code === 'invalid_union' ? closestBranch(issue.errors) : undefined;
    if (branch) return configIssues(branch, path);
    const unset = issue.code === 'invalid_type' && issue.message.endsWith('received undefined');
    return [`${path.map(String).join('.') || '(config)'}: ${issue.message}${unset ? UNSET : ''}`];
  });
}
