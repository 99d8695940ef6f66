// The time bound every shared store runs under (elicitation.storeTimeoutMs): the store contract holds through it, and
// against a real redis-server that hangs (SIGSTOP), an operation ends with STORE_UNAVAILABLE and a subscription that
// opens only once Redis is back is closed at once, not left listening.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/protocol';
import { boundedStore } from '../../src/stores/bounded';
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

describeStoreContract('redis, bounded', async () =>
  boundedStore(await createRedisStore(redis.url), { timeoutMs: 2_000, onError: () => undefined }),
);

describe('a bounded store over a Redis that hangs', () => {
  it('ends each operation with StoreUnavailableError, and closes a subscription that opens after it gave up', async () => {
    const own = await startRedis();
    const errors: string[] = [];
    const store = boundedStore(await createRedisStore(own.url), { timeoutMs: 200, onError: (e) => errors.push(e.message) });
    const admin = new Redis(own.url);
    try {
      await store.set('k', 'v');
      own.signal('SIGSTOP');
      try {
        await expect(store.get('k')).rejects.toThrow(StoreUnavailableError);
        await expect(store.subscribe('late', () => undefined)).rejects.toThrow(/store \(redis\) did not answer within 200 ms/);
      } finally {
        own.signal('SIGCONT');
      }
      expect(errors).toContain('no answer within 200 ms (elicitation.storeTimeoutMs)');
      // Sent after SUBSCRIBE late on the same connection, so answered after it: from here `late` is subscribed, or was
      // already left again.
      await (await store.subscribe('other', () => undefined))();
      let listening = 1;
      for (let tries = 0; tries < 100 && listening > 0; tries++) {
        listening = Number(((await admin.call('PUBSUB', 'NUMSUB', 'late')) as unknown[])[1]);
        if (listening > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(listening).toBe(0);
      expect(await store.get('k')).toBe('v');
    } finally {
      admin.disconnect();
      await store.close();
      await own.stop();
    }
  }, 20_000);
});
