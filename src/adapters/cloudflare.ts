// Cloudflare Workers: a module Worker's default export. workerd takes a function export for a class, so this is an object.
import type { FetchHandler } from '../http/handler';
import type { ServerInput } from '../server/instance';
import { handlerOf } from './handler-of';

export interface WorkerExport {
  fetch: FetchHandler['fetch'];
}

/**
 * The Worker entry for a server; env bindings (VAULT_SECRET, UPSTASH_REDIS_REST_URL, …) are read from the Worker's
 * env, and ctx.waitUntil keeps work alive that outlives a response.
 * @example export default createWorker(config);
 */
export function createWorker(input: ServerInput | FetchHandler): WorkerExport {
  return { fetch: handlerOf(input).fetch };
}
