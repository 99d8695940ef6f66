// The store contract against a real redis-server, plus what only Redis over TCP does: TTLs in Redis, reconnecting.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/stores/redis';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { describeStoreContract } from './contract';

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

describeStoreContract('redis (options)', () => createRedisStore({ provider: 'redis', host: redis.host, port: redis.port }));
describeStoreContract('redis (URL)', () => createRedisStore(redis.url));

describe('redis store', () => {
  it('keeps the TTL in Redis itself, so every instance sees it expire', async () => {
    const store = await createRedisStore(redis.url);
    const other = new Redis(redis.url); // another connection: the store's own client is #private
    try {
      await store.set('ttl:check', 'v', 60_000);
      const raw = await other.pttl('ttl:check');
      expect(raw).toBeGreaterThan(0);
      expect(raw).toBeLessThanOrEqual(60_000);
    } finally {
      other.disconnect();
      await store.close();
    }
  });

  it('subscriptions come back after the Redis server restarts', async () => {
    const own = await startRedis();
    let restarted: RunningRedis | undefined;
    const [a, b] = [await createRedisStore(own.url), await createRedisStore(own.url)];
    try {
      const got: string[] = [];
      await b.subscribe('restart:ch', (m) => got.push(m));
      await own.stop();
      restarted = await startRedis({ port: own.port });
      // ioredis reconnects both connections and subscribes again; publish until the message gets through.
      const publishAndRead = async () => {
        await a.publish('restart:ch', 'after restart').catch(() => undefined); // may fail while reconnecting
        return got;
      };
      await expect.poll(publishAndRead, { timeout: 10_000, interval: 200 }).toContain('after restart');
    } finally {
      await Promise.all([a.close(), b.close()]);
      await restarted?.stop();
    }
  });

  it('fails to start with a clear error when nothing listens, and keeps no connection retrying', async () => {
    const stopped = await startRedis();
    await stopped.stop();
    await expect(createRedisStore({ host: '127.0.0.1', port: stopped.port })).rejects.toThrow(
      `Could not connect to Redis at 127.0.0.1:${stopped.port}`,
    );
  });

  it('never shows a password from the URL in its error', async () => {
    const stopped = await startRedis();
    await stopped.stop();
    const failure = createRedisStore(`redis://user:hunter2@127.0.0.1:${stopped.port}`);
    await expect(failure).rejects.toThrow('redis://***@127.0.0.1');
    await expect(failure).rejects.not.toThrow('hunter2');
  });
});
