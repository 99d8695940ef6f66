// Cloudflare Workers: a module Worker's default export. workerd takes a function export for a class, so this is an object.
import { createStartingHandler, type FetchHandler, type ServerInput } from '../app';
import type { ParleyServer } from '../engine';
import { providedRedisHttp } from '../stores';

export interface WorkerExport {
  fetch: FetchHandler['fetch'];
}

const REDIS_HTTP_UNUSED =
  "enableRedisHttp() put Redis over HTTP in this Worker, but it is not used: set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (.dev.vars for wrangler dev, `wrangler secret put` for a deploy) or name { provider: 'upstash' } in the config. Until then clients before 2026-07-28 can't be asked";

/** On its first request: the Worker's entry asked for Redis over HTTP, yet the server started without it. */
function checkStart(server: ParleyServer): void {
  if (providedRedisHttp() && server.elicitationStore?.info.type !== 'redis-http') server.logger.warn(REDIS_HTTP_UNUSED);
}

/**
 * The Worker entry for a server; env bindings (VAULT_SECRET, UPSTASH_REDIS_REST_URL, …) are read from the Worker's
 * env, and ctx.waitUntil keeps work alive that outlives a response.
 * @example export default createWorker(config);
 */
export function createWorker(input: ServerInput | FetchHandler): WorkerExport {
  const handler =
    typeof input === 'function' && 'fetch' in input ? (input as FetchHandler) : createStartingHandler(input as ServerInput, checkStart);
  return { fetch: handler.fetch };
}
