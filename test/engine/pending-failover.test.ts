// Answers sent while a Redis Cluster fails over reach the questions waiting on another instance: two
// PendingQuestions (two instances' worth) over a real three-master cluster with a replica each. The answers go out
// during the second after the failover, while the waiter's subscription is still moving to the new master.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PendingQuestions } from '../../src/engine/legacy/pending';
import { QuestionKeys } from '../../src/stores';
import { createRedisStore } from '../../src/stores/redis';
import { quiet, storeOf } from '../helpers/pending-store';
import { startRedisCluster, type RunningCluster } from '../helpers/redis-cluster';

const PASSWORD = 'a cluster password';
let cluster: RunningCluster;
beforeAll(async () => {
  cluster = await startRedisCluster({ replicas: 1, password: PASSWORD });
}, 30_000);
afterAll(async () => {
  await cluster?.stop();
});

const connect = () => createRedisStore({ provider: 'redis', cluster: cluster.seeds.slice(0, 1), password: PASSWORD });
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('pending questions across a Redis Cluster failover', () => {
  it('every answer sent in the second after the answer channels’ shard fails over is delivered, and reaches its waiter', async () => {
    const [one, two] = [await connect(), await connect()];
    const [a, b] = [new PendingQuestions(storeOf(one), quiet), new PendingQuestions(storeOf(two), quiet)];
    try {
      // Twelve questions whose answer channels (named as the question store keys them) share one shard.
      const names = new QuestionKeys('mcp:', storeOf(one).secret);
      const channel = (id: string) => names.name('result', 's1', id);
      const { master, replica } = await cluster.shardOf(await channel('q-0'));
      const ids: string[] = [];
      for (let n = 0; ids.length < 12; n++) if ((await cluster.shardOf(await channel(`q-${n}`))).master === master) ids.push(`q-${n}`);
      const questions = await Promise.all(
        ids.map((id) => a.open({ sessionId: 's1', caller: 'c1' }, id, { message: `Sure about ${id}?` }, 60_000)),
      );

      expect(await cluster.cli(replica, 'cluster', 'failover')).toBe('OK');
      await expect.poll(async () => (await cluster.shardOf(await channel('q-0'))).master, { timeout: 10_000 }).toBe(replica);
      // One answer every 20 ms from B, all before A’s subscriptions can have moved (a slots refresh is a second).
      const deliveries = await Promise.all(
        ids.map((id, i) => later(i * 20).then(() => b.deliver('s1', id, { action: 'accept', content: { id } }))),
      );
      expect(deliveries).toEqual(ids.map(() => 'delivered'));
      const heard = await Promise.all(questions.map((q) => Promise.race([q.answer, later(8_000).then(() => 'not heard within 8 s')])));
      expect(heard).toEqual(ids.map((id) => ({ action: 'accept', content: { id } })));
      await Promise.all(questions.map((q) => q.close()));
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  }, 40_000);
});
