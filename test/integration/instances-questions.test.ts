// Older clients' questions across several Parley processes on a real redis-server (with a password), over TCP and over
// Redis over HTTP: every answer reaches its own call, an answer nobody can receive is refused, and no call ends in silence.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, type Instance } from '../helpers/instances';
import { freshFetch } from '../helpers/fresh-fetch';
import { legacyPost, openLegacySession, request, sseReader } from '../helpers/legacy';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { SHARED_REDIS, type SharedRedis } from '../helpers/shared-redis';

const PASSWORD = 'a redis password';
const SECRETS = { VAULT_SECRET: 'one vault secret for every instance', MCP_SESSION_SECRET: 'one session secret for every instance' };
// A fresh connection per request: hundreds of streams and posts must not meet the keep-alive pool's idle-out race.
const send = freshFetch;
const started: Instance[] = [];
afterAll(() => Promise.all(started.map((i) => i.stop())));

async function instances(count: number, store: string, env: Record<string, string> = {}): Promise<Instance[]> {
  const all = await Promise.all(Array.from({ length: count }, () => startInstance({ PARLEY_TEST_STORE: store, ...SECRETS, ...env })));
  started.push(...all);
  return all;
}

type Reader = ReturnType<typeof sseReader>;

/** A call of close_ticket on `on`, read until its question arrives. */
async function ask(on: Instance, session: string, id: string): Promise<{ events: Reader; question: { id: string; method: string } }> {
  const events = sseReader(await send(legacyPost(request('tools/call', { name: 'close_ticket', arguments: { id } }), session, {}, on.url)));
  const question = (await events.next())!.data;
  expect(question.method).toBe('elicitation/create');
  return { events, question };
}

const confirm = (note: string) => ({ action: 'accept', content: { confirm: true, note } });
const answer = (to: Instance, session: string, questionId: string, note: string) =>
  send(legacyPost({ jsonrpc: '2.0', id: questionId, result: confirm(note) }, session, {}, to.url));

/** The call's last message, and whether the stream then closed: a call that ends in silence has none. */
async function ending(events: Reader): Promise<{ final?: any; closed: boolean }> {
  let final: any;
  for (;;) {
    const event = await events.next();
    if (!event) return { final, closed: true };
    if (event.data.id !== undefined && (event.data.result !== undefined || event.data.error !== undefined)) final = event.data;
  }
}

describe.each(SHARED_REDIS)('three instances sharing %s', (name, open) => {
  let setup: SharedRedis & { name: string };
  let a: Instance, b: Instance, c: Instance, doomed: Instance;
  beforeAll(async () => {
    const opened = await open();
    setup = { name, ...opened };
    // The fourth is killed by a test.
    [a, b, c, doomed] = (await instances(4, opened.store, { PARLEY_TEST_MANY: '1' })) as [Instance, Instance, Instance, Instance];
  }, 60_000);
  afterAll(() => setup?.stop());

  it('one question asked on A and answered on B completes on A', async () => {
    const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
    const { events, question } = await ask(a, session, 'T-1');
    expect((await answer(b, session, question.id, 'one')).status).toBe(202);
    expect((await ending(events)).final.result.structuredContent).toEqual({ closed: true, id: 'T-1', note: 'one' });
  });

  it.each([2, 5])('%i concurrent calls in one session, asked on A and answered on B: each answer reaches its own call', async (n) => {
    const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
    const calls = await Promise.all(Array.from({ length: n }, (_, i) => ask(a, session, `T-${i}`)));
    expect(new Set(calls.map((call) => call.question.id)).size).toBe(n);
    const statuses = await Promise.all(calls.map((call, i) => answer(b, session, call.question.id, `note-${i}`).then((r) => r.status)));
    expect(statuses).toEqual(Array(n).fill(202));
    const finals = await Promise.all(calls.map((call) => ending(call.events)));
    expect(finals.map((f) => f.final.result.structuredContent)).toEqual(
      calls.map((_, i) => ({ closed: true, id: `T-${i}`, note: `note-${i}` })),
    );
  });

  it('a second answer to an answered question is refused with a JSON-RPC error, not accepted', async () => {
    const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
    const { events, question } = await ask(a, session, 'T-9');
    expect((await answer(b, session, question.id, 'first')).status).toBe(202);
    await ending(events);
    const again = await answer(c, session, question.id, 'second');
    expect(again.status).toBe(410);
    expect(await again.json()).toMatchObject({
      id: question.id,
      error: { code: -31001, data: { code: 'ANSWER_UNDELIVERABLE', reason: 'no-question' } },
    });
  });

  it('the session deleted on B while a question waits on A: the call on A ends with a JSON-RPC error naming it', async () => {
    const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
    const { events, question } = await ask(a, session, 'T-D');
    expect((await send(new Request(b.url, { method: 'DELETE', headers: { 'mcp-session-id': session } }))).status).toBe(204);
    const end = await ending(events);
    expect(end.closed).toBe(true);
    expect(end.final).toMatchObject({ error: { code: -32001, data: { code: 'SESSION_ENDED' } } });
    expect(end.final.error.message).toContain('DELETE');
    expect((await answer(b, session, question.id, 'late')).status).toBe(404);
  });

  it('load: 200 sessions (20 over HTTP) with 3 questions each, asked and answered across three instances: 0 lost, 0 silent', async () => {
    // Over HTTP each waiting question holds its own event stream (and the test server a Redis connection for it).
    const sessions = name === 'Redis over TCP' ? 200 : 20;
    const all = [a, b, c];
    const outcomes = await Promise.all(
      Array.from({ length: sessions }, async (_, s) => {
        const home = all[s % 3]!;
        const session = await openLegacySession(send, { elicitation: {} }, {}, home.url);
        return Promise.all(
          Array.from({ length: 3 }, async (_, q) => {
            const on = all[(s + q) % 3]!;
            const { events, question } = await ask(on, session, `S${s}-Q${q}`);
            const status = (await answer(all[(s + q + 1) % 3]!, session, question.id, `${s}/${q}`)).status;
            const end = await ending(events);
            const content = end.final?.result?.structuredContent;
            return { status, silent: end.final === undefined, right: content?.id === `S${s}-Q${q}` && content?.note === `${s}/${q}` };
          }),
        );
      }),
    );
    const flat = outcomes.flat();
    const count = (test: (o: (typeof flat)[number]) => boolean) => flat.filter(test).length;
    expect({
      calls: flat.length,
      accepted: count((o) => o.status === 202),
      delivered: count((o) => o.right),
      silent: count((o) => o.silent),
    }).toEqual({
      calls: sessions * 3,
      accepted: sessions * 3,
      delivered: sessions * 3,
      silent: 0,
    });
  }, 60_000);

  it('an instance killed while its question waits: the answer posted to another is refused (nobody hears it), not accepted', async () => {
    const session = await openLegacySession(send, { elicitation: {} }, {}, doomed.url);
    const { events, question } = await ask(doomed, session, 'T-K');
    await doomed.kill();
    await events.cancel().catch(() => undefined);
    const refused = await answer(b, session, question.id, 'to nobody');
    expect(refused.status).toBe(410);
    expect(await refused.json()).toMatchObject({ id: question.id, error: { code: -31001, data: { reason: 'no-listener' } } });
  });
});

describe('the official v1 client behind a round-robin balancer over three instances', () => {
  let redis: RunningRedis;
  let all: Instance[];
  beforeAll(async () => {
    redis = await startRedis({ password: PASSWORD });
    all = await instances(3, `redis:${redis.url}`);
  }, 60_000);
  afterAll(() => redis?.stop());

  it('5 concurrent calls, every request (answers included) sent to the next instance: each call gets its own answer', async () => {
    let next = 0;
    // Every request goes to the next instance in turn, as a balancer without affinity sends them.
    const balanced: typeof fetch = (_input, init) => {
      const url = new URL(all[next++ % all.length]!.url);
      return fetch(url, init);
    };
    const client = new V1Client({ name: 'v1-balanced', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (r) => {
      const id = /Close ticket (\S+)\?/.exec(r.params.message)![1]!;
      return { action: 'accept', content: { confirm: true, note: `note for ${id}` } };
    });
    await client.connect(new V1Transport(new URL(all[0]!.url), { fetch: balanced }));
    try {
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) => client.callTool({ name: 'close_ticket', arguments: { id: `V-${i}` } })),
      );
      expect(results.map((r) => r.structuredContent)).toEqual(
        Array.from({ length: 5 }, (_, i) => ({ closed: true, id: `V-${i}`, note: `note for V-${i}` })),
      );
      expect(next).toBeGreaterThan(10); // the answers went round the instances too
    } finally {
      await client.close();
    }
  });
});

// The two restarts use Redis servers and instances of their own, so they run side by side.
describe.concurrent('Redis restarted while five questions wait', () => {
  /** Five calls in one session asked on A; Redis restarts; then each is answered on B. */
  async function restartWhileWaiting(options: { aofDir?: string }) {
    let redis = await startRedis({ password: PASSWORD, ...options });
    const [a, b] = (await instances(2, `redis:${redis.url}`)) as [Instance, Instance];
    try {
      const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
      const calls = await Promise.all(Array.from({ length: 5 }, (_, i) => ask(a, session, `R-${i}`)));
      await redis.stop();
      redis = await startRedis({ password: PASSWORD, port: redis.port, ...options });
      // ioredis reconnects within about a second; until it has, an answer may meet no subscriber yet.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const statuses = await Promise.all(calls.map((call, i) => answer(b, session, call.question.id, `after-${i}`).then((r) => r.status)));
      const ends = await Promise.all(calls.map((call) => ending(call.events)));
      return { statuses, ends };
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await redis.stop();
    }
  }

  it('without persistence: every call ends with an error naming the loss (0 silent), and no answer is acknowledged', async () => {
    const { statuses, ends } = await restartWhileWaiting({});
    expect(statuses.filter((s) => s === 202)).toEqual([]);
    expect(statuses).toEqual(Array(5).fill(404)); // the session went with Redis's data
    expect(ends.filter((e) => e.final === undefined)).toEqual([]);
    for (const { final } of ends) {
      const named = final.result?._meta?.code ?? final.error?.data?.code;
      expect(['ELICITATION_LOST', 'SESSION_ENDED']).toContain(named);
    }
  }, 30_000);

  it('with persistence (AOF): nothing is lost, every waiting question is answered after the restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-aof-'));
    try {
      const { statuses, ends } = await restartWhileWaiting({ aofDir: dir });
      expect(statuses).toEqual(Array(5).fill(202));
      expect(ends.map((e) => e.final.result.structuredContent)).toEqual(
        Array.from({ length: 5 }, (_, i) => ({ closed: true, id: `R-${i}`, note: `after-${i}` })),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
