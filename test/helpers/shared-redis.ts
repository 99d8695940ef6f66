// The two ways instances share one real redis-server in the multi-instance tests: over TCP, and over HTTP through the
// Upstash REST test server in front of it. Each opener starts its own, with a password, and says how to name it to an
// instance (the store argument) and how to stop it.
import { startRedis, type RunningRedis } from './redis';
import { startUpstashServer } from './upstash-server';

export interface SharedRedis {
  redis: RunningRedis;
  /** The store as an instance is told it: `redis:<url>` or `upstash:<url>#<token>`. */
  store: string;
  stop(): Promise<void>;
}

const PASSWORD = 'a redis password';

const overTcp = async (): Promise<SharedRedis> => {
  const redis = await startRedis({ password: PASSWORD });
  return { redis, store: `redis:${redis.url}`, stop: () => redis.stop() };
};

const overHttp = async (): Promise<SharedRedis> => {
  const redis = await startRedis({ password: PASSWORD });
  const upstash = await startUpstashServer(redis.url);
  return { redis, store: `upstash:${upstash.url}#${upstash.token}`, stop: async () => (await upstash.close(), await redis.stop()) };
};

/** For describe.each: each way with its name. */
export const SHARED_REDIS = [
  ['Redis over TCP', overTcp],
  ['Redis over HTTP', overHttp],
] as const;
