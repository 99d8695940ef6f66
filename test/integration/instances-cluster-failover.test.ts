// A master failover of a Redis Cluster while an older client's question waits: two Parley processes, a real
// three-master cluster with a replica each (and a password). The answer posted to the other instance after the
// failover still reaches the waiting call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionKeys } from '../../src/stores';
import { freshFetch as send } from '../helpers/fresh-fetch';
import { startInstance, type Instance } from '../helpers/instances';
import { legacyPost, openLegacySession, request, sseReader } from '../helpers/legacy';
import { startRedisCluster, type RunningCluster } from '../helpers/redis-cluster';

const PASSWORD = 'a cluster password';
const SECRETS = { VAULT_SECRET: 'one vault secret for every instance', MCP_SESSION_SECRET: 'one session secret for every instance' };
let cluster: RunningCluster;
let a: Instance, b: Instance;
beforeAll(async () => {
  cluster = await startRedisCluster({ replicas: 1, password: PASSWORD });
  const store = `redis-cluster:${JSON.stringify({ provider: 'redis', cluster: cluster.seeds.slice(0, 1), password: PASSWORD })}`;
  [a, b] = await Promise.all([
    startInstance({ PARLEY_TEST_STORE: store, ...SECRETS }),
    startInstance({ PARLEY_TEST_STORE: store, ...SECRETS }),
  ]);
}, 90_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await cluster?.stop();
});

describe('a Redis Cluster failover while a question waits', () => {
  it("promotes the replicas of the question's record and its answer channel; the answer posted to B completes the call on A", async () => {
    const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
    const events = sseReader(
      await send(legacyPost(request('tools/call', { name: 'close_ticket', arguments: { id: 'F-1' } }), session, {}, a.url)),
    );
    const question = (await events.next())!.data;
    expect(question.method).toBe('elicitation/create');

    // Every shard that holds the question: its record and the channel its answer is published on.
    // Named as the question store keys them, under the elicitation store's secret (MCP_SESSION_SECRET here).
    const names = new QuestionKeys('mcp:', SECRETS.MCP_SESSION_SECRET);
    const [record, channel] = [
      await names.name('pending', session, String(question.id)),
      await names.name('result', session, String(question.id)),
    ];
    const shards = [await cluster.shardOf(record), await cluster.shardOf(channel)];
    expect(await cluster.cli(shards[0]!.master, 'exists', record)).toBe('1'); // the record is where we look
    for (const { replica } of shards) await cluster.cli(replica, 'cluster', 'failover');
    for (const { replica } of shards)
      await expect.poll(async () => (await cluster.roles()).masters, { timeout: 15_000 }).toContain(replica);
    // A's subscription follows the slot to its new master within a slots refresh (a second).
    await expect
      .poll(async () => (await cluster.cli((await cluster.shardOf(channel)).master, 'pubsub', 'shardnumsub', channel)).split('\n')[1], {
        timeout: 10_000,
      })
      .toBe('1');

    const answered = await send(
      legacyPost(
        { jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { confirm: true, note: 'after failover' } } },
        session,
        {},
        b.url,
      ),
    );
    expect(answered.status).toBe(202);
    let last: any;
    for (let e = await events.next(); e; e = await events.next())
      if (e.data.result !== undefined || e.data.error !== undefined) last = e.data;
    expect(last.result.structuredContent).toEqual({ closed: true, id: 'F-1', note: 'after failover' });
  });
});
