// The store contract and the task store contract against a real three-master Redis Cluster (a replica each, a password),
// and what only a cluster does: why plain PUBLISH can't count subscribers there, and a failover while a subscriber listens.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisOptionsSchema } from '../../src/stores';
import { createRedisStore } from '../../src/stores/redis';
import { sparePort } from '../helpers/ports';
import { startRedisCluster, type RunningCluster } from '../helpers/redis-cluster';
import { describeTaskStore } from '../engine/task-store-contract';
import { describeStoreContract } from './contract';

const PASSWORD = 'a cluster password';
let cluster: RunningCluster;
beforeAll(async () => {
  cluster = await startRedisCluster({ replicas: 1, password: PASSWORD });
}, 30_000);
afterAll(async () => {
  await cluster?.stop();
});

const options = () => ({ provider: 'redis' as const, cluster: cluster.seeds.slice(0, 1), password: PASSWORD });
const raw = (port: number) => new Redis({ host: '127.0.0.1', port, password: PASSWORD });

const shardOf = (key: string) => cluster.shardOf(key);

describeStoreContract('redis-cluster (three masters, a replica each)', () => createRedisStore(options()));
// Tasks too: each instance's store a client of its own, their keys spread over the three masters.
describeTaskStore('redis-cluster', async () => [await createRedisStore(options()), await createRedisStore(options())]);

describe('redis cluster store', () => {
  it('takes `cluster: [{ host, port }, …]` in the redis options, and refuses what a cluster has not', () => {
    expect(
      redisOptionsSchema.safeParse({ provider: 'redis', cluster: [{ host: '10.0.0.1', port: 7000 }], password: 'p', keyPrefix: 'x:' })
        .success,
    ).toBe(true);
    expect(redisOptionsSchema.safeParse({ cluster: [] }).success).toBe(false);
    expect(redisOptionsSchema.safeParse({ cluster: [{ host: '10.0.0.1' }] }).success).toBe(false);
    expect(redisOptionsSchema.safeParse({ cluster: [{ host: '10.0.0.1', port: 7000 }], db: 1 }).success).toBe(false);
    expect(redisOptionsSchema.safeParse({ cluster: [{ host: '10.0.0.1', port: 7000 }], host: '10.0.0.2' }).success).toBe(false);
  });

  it('plain PUBLISH counts only the receiving node’s subscribers (why the store uses SPUBLISH); the store counts them all', async () => {
    const { master } = await shardOf('count:ch');
    const other = cluster.nodes.map((n) => n.port).find((p) => p !== master)!;
    const [subscriber, publisher] = [raw(master), raw(other)];
    const [a, b] = [await createRedisStore(options()), await createRedisStore(options())];
    try {
      const heardPlain: string[] = [];
      subscriber.on('message', (_, m: string) => heardPlain.push(m));
      await subscriber.subscribe('count:ch');
      // Redis 7 broadcasts PUBLISH over the cluster bus, so the message arrives, yet the reply says nobody heard it.
      expect(await publisher.publish('count:ch', 'plain')).toBe(0);
      await expect.poll(() => heardPlain).toEqual(['plain']);

      const heard: string[] = [];
      await b.subscribe('count:ch', (m) => heard.push(m));
      expect(await a.publish('count:ch', 'sharded')).toBe(1);
      await expect.poll(() => heard).toEqual(['sharded']);
    } finally {
      subscriber.disconnect();
      publisher.disconnect();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a session’s keys spread over the masters (no hash tags: each command names one key) and read back from any instance', async () => {
    const [a, b] = [await createRedisStore(options()), await createRedisStore(options())];
    try {
      const keys = ['mcp:pending:s1', 'mcp:pending:s1:1', 'mcp:pending:s1:2', 'mcp:pending:s1:3', 'mcp:session:s1'];
      await Promise.all(keys.map((key) => a.set(key, `v ${key}`, 60_000)));
      expect(await Promise.all(keys.map((key) => b.get(key)))).toEqual(keys.map((key) => `v ${key}`));
      expect(new Set(await Promise.all(keys.map(async (key) => (await shardOf(key)).master)))).not.toEqual(
        new Set([(await shardOf(keys[0]!)).master]),
      );
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('fails to start with a clear error when no node listens', async () => {
    const port = await sparePort();
    await expect(createRedisStore({ cluster: [{ host: '127.0.0.1', port }] })).rejects.toThrow(
      `Could not connect to the Redis Cluster at 127.0.0.1:${port}`,
    );
  });

  // Last: it changes which node is master of a shard.
  it('a failover (CLUSTER FAILOVER on the replica) while a subscriber listens: data kept, and messages reach it on the new master', async () => {
    const channel = 'failover:ch';
    const { master, replica } = await shardOf(channel);
    const [a, b] = [await createRedisStore(options()), await createRedisStore(options())];
    try {
      const heard: string[] = [];
      await b.subscribe(channel, (m) => heard.push(m));
      await a.set(channel, 'kept');
      expect(await a.publish(channel, 'before')).toBe(1);
      expect(await cluster.cli(replica, 'cluster', 'failover')).toBe('OK');
      await expect.poll(async () => (await shardOf(channel)).master, { timeout: 10_000 }).toBe(replica);
      // Publish until the subscriber has moved to the new master and hears it there. While it moves, a count can be
      // wrong either way (the demoted master still counts it, or ioredis's node list is being refreshed): what relies on
      // it keeps the answer and publishes again (test/engine/pending-failover and pending-kept-answer).
      let sent = 0;
      await expect
        .poll(
          async () => {
            const message = `after ${sent++}`;
            const count = await a.publish(channel, message);
            await new Promise((resolve) => setTimeout(resolve, 50));
            return heard.includes(message) && count > 0;
          },
          { timeout: 10_000, interval: 100 },
        )
        .toBe(true);
      // Within a slots refresh (a second), the subscription itself moves to the new master, and is heard there.
      const onNewMaster = raw(replica);
      try {
        await expect
          .poll(async () => ((await onNewMaster.call('PUBSUB', 'SHARDNUMSUB', channel)) as unknown[])[1], { timeout: 5_000 })
          .toBe(1);
      } finally {
        onNewMaster.disconnect();
      }
      expect(await a.publish(channel, 'moved')).toBe(1);
      await expect.poll(() => heard).toContain('moved');
      expect(await b.get(channel)).toBe('kept');
      expect(master).not.toBe(replica);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 20_000);
});
