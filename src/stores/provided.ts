// Redis over HTTP for a bundle that leaves it out: parley-mcp/redis-http's enableRedisHttp() hands its opener here.
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
