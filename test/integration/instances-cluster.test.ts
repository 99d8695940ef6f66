// Older clients' questions across two Parley processes sharing a real three-master Redis Cluster (with a password).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshFetch as send } from '../helpers/fresh-fetch';
import { startInstance, type Instance } from '../helpers/instances';
import { legacyPost, openLegacySession, request, sseReader } from '../helpers/legacy';
import { startRedisCluster, type RunningCluster } from '../helpers/redis-cluster';

const PASSWORD = 'a cluster password';
const SECRETS = { VAULT_SECRET: 'one vault secret for every instance', MCP_SESSION_SECRET: 'one session secret for every instance' };
let cluster: RunningCluster;
let a: Instance, b: Instance;
beforeAll(async () => {
  cluster = await startRedisCluster({ password: PASSWORD });
  const store = `redis-cluster:${JSON.stringify({ provider: 'redis', cluster: cluster.seeds.slice(0, 1), password: PASSWORD })}`;
  [a, b] = await Promise.all([
    startInstance({ PARLEY_TEST_STORE: store, ...SECRETS }),
    startInstance({ PARLEY_TEST_STORE: store, ...SECRETS }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await cluster?.stop();
});

type Reader = ReturnType<typeof sseReader>;
async function ask(on: Instance, session: string, id: string): Promise<{ events: Reader; question: { id: string } }> {
  const events = sseReader(await send(legacyPost(request('tools/call', { name: 'close_ticket', arguments: { id } }), session, {}, on.url)));
  const question = (await events.next())!.data;
  expect(question.method).toBe('elicitation/create');
  return { events, question };
}
const answer = (to: Instance, session: string, id: string, note: string) =>
  send(legacyPost({ jsonrpc: '2.0', id, result: { action: 'accept', content: { confirm: true, note } } }, session, {}, to.url));
async function final(events: Reader): Promise<any> {
  let last: any;
  for (let e = await events.next(); e; e = await events.next())
    if (e.data.result !== undefined || e.data.error !== undefined) last = e.data;
  return last;
}

describe('two instances sharing a Redis Cluster', () => {
  it('logs the cluster store, and a question asked on A and answered on B completes on A', async () => {
    expect(a.log()).toContain('questions wait in redis-cluster'); // the banner names the store
    const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
    const { events, question } = await ask(a, session, 'C-1');
    expect((await answer(b, session, question.id, 'one')).status).toBe(202);
    expect((await final(events)).result.structuredContent).toEqual({ closed: true, id: 'C-1', note: 'one' });
  });

  it('5 concurrent calls in one session, asked on A and answered on B: each answer reaches its own call', async () => {
    const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
    const calls = await Promise.all(Array.from({ length: 5 }, (_, i) => ask(a, session, `C-${i}`)));
    const statuses = await Promise.all(calls.map((call, i) => answer(b, session, call.question.id, `n${i}`).then((r) => r.status)));
    expect(statuses).toEqual(Array(5).fill(202));
    const finals = await Promise.all(calls.map((call) => final(call.events)));
    expect(finals.map((f) => f.result.structuredContent)).toEqual(calls.map((_, i) => ({ closed: true, id: `C-${i}`, note: `n${i}` })));
  });

  it('an answer nobody waits for (the asking instance killed) is refused with 410 no-listener', async () => {
    const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
    const { events, question } = await ask(a, session, 'C-K');
    await a.kill();
    await events.cancel().catch(() => undefined);
    const refused = await answer(b, session, question.id, 'to nobody');
    expect(refused.status).toBe(410);
    expect(await refused.json()).toMatchObject({ id: question.id, error: { code: -31001, data: { reason: 'no-listener' } } });
  });
});
