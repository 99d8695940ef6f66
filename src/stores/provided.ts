// Stores for a bundle that leaves them out: parley-mcp/redis-http's enableRedisHttp() and parley-mcp/cloudflare's
// enableDurableObjects() hand their openers here.
import type { EnvSource } from '../runtime';
import type { StoreBackend } from './types';

export interface RedisHttpStoreOptions {
  /** The REST URL, e.g. https://eu1-example.upstash.io (UPSTASH_REDIS_REST_URL). */
  url: string;
  /** The REST token (UPSTASH_REDIS_REST_TOKEN). */
  token: string;
  /** How long subscribe() waits for the stream to open before it fails. Default 10 s. */
  subscribeTimeoutMs?: number;
  /** Told when a subscription's stream drops (it is opened again, with backoff) or can't be opened again. */
  onError?: (error: Error) => void;
}

/** Redis over HTTP (@upstash/redis): the elicitation store once its probe showed publish/subscribe works. */
export interface RedisHttpDriver {
  openRedisHttpStore(
    options: Partial<RedisHttpStoreOptions>,
    env: EnvSource,
    keyPrefix: string,
    onError?: (error: Error) => void,
  ): Promise<StoreBackend>;
}

let enabledRedisHttp: RedisHttpDriver | undefined;

/** Puts Redis over HTTP into a bundle that leaves it out; parley-mcp/redis-http's enableRedisHttp() calls it. */
export const provideRedisHttp = (driver: RedisHttpDriver): void => void (enabledRedisHttp = driver);
export const providedRedisHttp = (): RedisHttpDriver | undefined => enabledRedisHttp;

/** The parts of a Durable Object namespace binding (env.PARLEY_STORE) the Durable Objects store uses. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/** The Durable Objects store, once the Worker's entry called enableDurableObjects() (parley-mcp/cloudflare). */
interface DurableObjectsDriver {
  keyPrefix?: string;
  /** The store over the namespace the Worker's env binds; throws, naming what to bind, when it binds none. */
  open(env: EnvSource): StoreBackend;
}

let enabledDurableObjects: DurableObjectsDriver | undefined;

/** Puts the Durable Objects store into a Worker; parley-mcp/cloudflare's enableDurableObjects() calls it. */
export const provideDurableObjects = (driver: DurableObjectsDriver): void => void (enabledDurableObjects = driver);
export const providedDurableObjects = (): DurableObjectsDriver | undefined => enabledDurableObjects;
