// What a due set's Durable Object needs to wake its Worker: the self binding, where to call it, and how long to wait
// after a wake that failed. The object has none of the server's config (webhook URLs, secrets), so it sends nothing
// itself: it calls the Worker's own cron route (GET /_frontmcp/deadlines) through a service binding to the Worker, which
// sends what is due as any request would (inbox/due-nudges.ts). Without the binding nothing wakes the Worker: the next
// request or a Cron Trigger sends what is due, as before.

/** The env binding a Worker declares to itself in wrangler.toml ([[services]] binding = "PARLEY_SELF", service = its name). */
const SELF_BINDING = 'PARLEY_SELF';

/** The one row a due set's object keeps beside its value: where to wake the Worker, and its failed wakes so far. */
export const WAKE = 'CREATE TABLE IF NOT EXISTS wake (url TEXT NOT NULL, tries INTEGER NOT NULL, not_before INTEGER NOT NULL)';

/** The parts of a service binding (a Fetcher) the object calls. */
export interface SelfFetcher {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

interface Wake {
  url: string;
  tries: number;
  /** No wake before this time (ms since the epoch): a failed wake's backoff. */
  notBefore: number;
}

interface Sql {
  exec(query: string, ...bindings: unknown[]): { toArray(): Record<string, unknown>[] };
}

/** The object's env binding to its own Worker, when wrangler.toml declares one. */
export function selfOf(env: unknown): SelfFetcher | undefined {
  if (typeof env !== 'object' || env === null || !Object.hasOwn(env, SELF_BINDING)) return undefined;
  const self = (env as Record<string, unknown>)[SELF_BINDING];
  return typeof (self as Partial<SelfFetcher> | undefined)?.fetch === 'function' ? (self as SelfFetcher) : undefined;
}

/** The wake row (this module wrote it, so its shape is known); call only where the table exists. */
export const readWake = (sql: Sql): Wake | undefined =>
  sql.exec('SELECT url, tries, not_before AS notBefore FROM wake').toArray()[0] as Wake | undefined;

/** After failed wake n (1, 2, …): 1 s, then twice as long each time, never more than 10 minutes, so a failing Worker is never called hot. */
export const backoffMs = (tries: number): number => Math.min(1_000 * 2 ** (tries - 1), 600_000);
