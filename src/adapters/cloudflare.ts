// Cloudflare Workers: a module Worker's default export. workerd takes a function export for a class, so this is an object.
import { createStartingHandler, serverStartFailed, type FetchHandler, type ServerInput } from '../app';
import type { KeepAlive, ParleyServer } from '../engine';
import { createRedactor, secretsIn } from '../runtime';
import { serverOptionsOf } from '../model';
import { providedRedisHttp } from '../stores';

// The Durable Objects store: the class the Worker's entry exports and wrangler.toml binds, and the call that keeps the
// server's store there. Neither is in a Worker's bundle unless its entry names them.
export { ParleyStore, enableDurableObjects, type DurableObjectsOptions } from '../stores';

export interface WorkerExport {
  fetch: FetchHandler['fetch'];
}

/**
 * What Cloudflare lets `ctx.waitUntil` work run after the response: 30 s (developers.cloudflare.com/workers/platform/limits/,
 * "Duration"; runtime-apis/context/). workerd run locally (miniflare, wrangler dev) does not cut it; a task ends itself
 * within it.
 */
const WAIT_UNTIL_MS = 30_000;

/** The Worker's ctx as the handler takes it: its waitUntil, with the time the platform gives that work. */
const keepAlive = (ctx: unknown): KeepAlive | undefined => {
  const given = ctx as { waitUntil?: (promise: Promise<unknown>) => void } | undefined;
  return given?.waitUntil ? { waitUntil: (promise) => given.waitUntil!(promise), afterResponseMs: WAIT_UNTIL_MS } : undefined;
};

/** A config made from the Worker's env bindings on its first request: secrets come from bindings, no nodejs_compat. */
export type WorkerConfig = (env: Record<string, unknown>) => ServerInput;

const REDIS_HTTP_UNUSED =
  "enableRedisHttp() put Redis over HTTP in this Worker, but it is not used: set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (.dev.vars for wrangler dev, `wrangler secret put` for a deploy) or name { provider: 'upstash' } in the config. Until then clients before 2026-07-28 can't be asked";

/** On its first request: the Worker's entry asked for Redis over HTTP, yet the server started without it. */
function checkStart(server: ParleyServer): void {
  if (providedRedisHttp() && server.elicitationStore?.info.type !== 'redis-http') server.logger.warn(REDIS_HTTP_UNUSED);
}

/** The handler over the config `configFor` makes from the first request's env; a throw is logged and answered 503, then tried again. */
function fromEnv(configFor: WorkerConfig): WorkerExport {
  let handler: FetchHandler | undefined;
  return {
    fetch(request, env, ctx) {
      try {
        handler ??= createStartingHandler(configFor((env ?? {}) as Record<string, unknown>), checkStart);
      } catch (error) {
        const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        console.error(`[parley] ERROR Server failed to start: the config function threw ${createRedactor(secretsIn(env)).text(why)}`);
        return Promise.resolve(serverStartFailed());
      }
      return handler.fetch(request, env, keepAlive(ctx));
    },
  };
}

const withLimit = (fetch: FetchHandler['fetch']): WorkerExport => ({
  fetch: (request, env, ctx) => fetch(request, env, keepAlive(ctx)),
});

/**
 * The Worker entry for a server: a config, a @FrontMcp class, a handler, or a function of the Worker's env that returns
 * the config. Env bindings (VAULT_SECRET, UPSTASH_REDIS_REST_URL, …) are read from the Worker's env, and ctx.waitUntil
 * keeps work alive that outlives a response.
 * @example export default createWorker((env) => ({ ...config, auth: { secret: env.AUTH_SECRET as string } }));
 */
export function createWorker(configFor: WorkerConfig): WorkerExport;
export function createWorker(input: ServerInput | FetchHandler): WorkerExport;
export function createWorker(input: ServerInput | FetchHandler | WorkerConfig): WorkerExport {
  if (typeof input === 'function' && 'fetch' in input) return withLimit((input as FetchHandler).fetch);
  if (typeof input === 'function' && !serverOptionsOf(input)) return fromEnv(input as WorkerConfig);
  return withLimit(createStartingHandler(input as ServerInput, checkStart).fetch);
}
