// A config that does not validate, in words a person can act on: each wrong field by its whole path, into the branch of
// an either-or option the value was written for, for a value that is missing the usual cause (an unset variable), and
// for an unknown key the option it was likely meant to be.
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

type Def = { shape?: Record<string, unknown>; innerType?: unknown; in?: unknown };
const defOf = (schema: unknown) => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** The keys an object schema takes at `path` (through optional, default and the like); none past a union or a record. */
function keysAt(schema: unknown, path: readonly PropertyKey[]): string[] | undefined {
  let def = defOf(schema);
  for (let step = 0; ; step++) {
    while (def && !def.shape && (def.innerType ?? def.in)) def = defOf(def.innerType ?? def.in);
    if (!def?.shape) return undefined;
    if (step === path.length) return Object.keys(def.shape);
    const key = path[step];
    if (typeof key !== 'string' || !Object.hasOwn(def.shape, key)) return undefined;
    def = defOf(def.shape[key]);
  }
}

/** Edits (insert, delete, replace, swap two neighbours) from a to b. */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  return rows[a.length]![b.length]!;
}

/** The known key an unknown one was likely meant to be: at most two edits away (one for a short key), else none. */
function likelyMeant(key: string, known: readonly string[]): string | undefined {
  const near = known.map((k) => ({ k, d: distance(key.toLowerCase(), k.toLowerCase()) })).sort((a, b) => a.d - b.d)[0];
  return near && near.d <= (key.length > 4 ? 2 : 1) ? near.k : undefined;
}

/**
 * One line per wrong field: `auth.secret: Invalid input: expected string, received undefined (it is undefined: …)`,
 * where zod alone says `auth: Invalid input`; `elicitaton: not an option: did you mean elicitation?` where it says
 * `Unrecognized key`. `base` is the path of the value that was checked; `schema`, when given, names the keys it takes.
 * @example configIssues(parsed.error.issues, ['elicitation', 'persistent'])
 */
export function configIssues(issues: readonly Issue[], base: readonly PropertyKey[] = [], schema?: unknown): string[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...issue.path];
    const branch = issue.code === 'invalid_union' ? closestBranch(issue.errors) : undefined;
    if (branch) return configIssues(branch, path);
    if (issue.code === 'unrecognized_keys') {
      const known = keysAt(schema, issue.path) ?? [];
      return issue.keys.map((key) => {
        const meant = likelyMeant(key, known);
        return `${[...path, key].map(String).join('.')}: not an option${meant ? `: did you mean ${[...path, meant].map(String).join('.')}?` : ''}`;
      });
    }
    const unset = issue.code === 'invalid_type' && issue.message.endsWith('received undefined');
    return [`${path.map(String).join('.') || '(config)'}: ${issue.message}${unset ? UNSET : ''}`];
  });
}
