// An older client's stream resumed with Last-Event-ID on another Parley process: two instances on a real redis-server
// (over TCP, and over Redis over HTTP), the stream cut while a tool asks, the reconnect served by the other instance
// from the store, every event exactly once, and the call completed. Hostile Last-Event-IDs get the 400 and nothing else.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, type Instance } from '../helpers/instances';
import { freshFetch as send } from '../helpers/fresh-fetch';
import { LEGACY, legacyPost, openLegacySession, request, sseReader, type SseEvent } from '../helpers/legacy';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { SHARED_REDIS } from '../helpers/shared-redis';

const PASSWORD = 'a redis password';
const SECRETS = { VAULT_SECRET: 'one vault secret for every instance', MCP_SESSION_SECRET: 'one session secret for every instance' };
const started: Instance[] = [];
afterAll(() => Promise.all(started.map((i) => i.stop())));

type Reader = ReturnType<typeof sseReader>;

const call = (args: { before: number; after: number; gapMs: number }) =>
  request('tools/call', { name: 'count_and_ask', arguments: args, _meta: { progressToken: 'p' } });

const resume = (on: Instance, session: string, lastEventId: string) =>
  send(
    new Request(on.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': LEGACY, 'last-event-id': lastEventId },
    }),
  );

/** Reads events until `stop` says so (inclusive), or the stream ends. */
async function readUntil(events: Reader, stop: (event: SseEvent) => boolean): Promise<SseEvent[]> {
  const seen: SseEvent[] = [];
  for (;;) {
    const event = await events.next();
    if (!event) return seen;
    seen.push(event);
    if (stop(event)) return seen;
  }
}

const seqOf = (event: SseEvent) => Number(event.id!.split(':')[1]);
const isQuestion = (event: SseEvent) => event.data.method === 'elicitation/create';

describe.each(SHARED_REDIS)('two instances sharing %s', (_name, open) => {
  let redis: RunningRedis;
  let stop: () => Promise<void>;
  let a: Instance, b: Instance;
  beforeAll(async () => {
    const opened = await open();
    redis = opened.redis;
    stop = opened.stop;
    [a, b] = await Promise.all([
      startInstance({ PARLEY_TEST_STORE: opened.store, ...SECRETS }),
      startInstance({ PARLEY_TEST_STORE: opened.store, ...SECRETS }),
    ]);
    started.push(a, b);
  }, 60_000);
  afterAll(() => stop?.());

  it('a stream cut while events still flow resumes on the other instance: each event once, in order, and the call completes', async () => {
    const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
    const events = sseReader(await send(legacyPost(call({ before: 40, after: 40, gapMs: 3 }), session, {}, a.url)));
    // The priming event has no data; cut after the second progress, while the tool goes on sending on A.
    const first = await readUntil(events, (e) => e.data.params?.progress === 2);
    await events.cancel();
    const last = first.at(-1)!.id!;
    const streamId = last.split(':')[0]!;

    const resumed = await resume(b, session, last);
    expect(resumed.status).toBe(200);
    const onB = sseReader(resumed);
    const beforeAnswer = await readUntil(onB, isQuestion);
    const question = beforeAnswer.at(-1)!;
    expect(question.data.method).toBe('elicitation/create');
    const answered = await send(
      legacyPost({ jsonrpc: '2.0', id: question.data.id, result: { action: 'accept', content: { go: true } } }, session, {}, b.url),
    );
    expect(answered.status).toBe(202);
    const rest = await readUntil(onB, () => false);

    const all = [...first, ...beforeAnswer, ...rest];
    // Every event of the stream, from the first progress to the result, once each and in order.
    expect(all.every((e) => e.id!.startsWith(`${streamId}:`))).toBe(true);
    expect(all.map(seqOf)).toEqual(Array.from({ length: 82 }, (_, i) => i + 1));
    expect(all.filter((e) => e.data.method === 'notifications/progress').map((e) => e.data.params.progress)).toEqual(
      Array.from({ length: 80 }, (_, i) => i + 1),
    );
    expect(all.at(-1)!.data.result.structuredContent ?? JSON.parse(all.at(-1)!.data.result.content[0].text)).toEqual({
      steps: 80,
      go: true,
    });
  });

  it('the stored events name neither the session nor the stream, and their data is sealed', async () => {
    const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
    const events = sseReader(await send(legacyPost(call({ before: 2, after: 0, gapMs: 0 }), session, {}, a.url)));
    const seen = await readUntil(events, isQuestion);
    const streamId = seen[0]!.id!.split(':')[0]!;
    const client = new Redis(redis.url);
    try {
      const keys = (await client.keys('*')).filter((key) => key.includes('events:'));
      expect(keys.length).toBeGreaterThanOrEqual(4); // the head, two progress events and the question
      for (const key of keys) {
        expect(key).not.toContain(session);
        expect(key).not.toContain(streamId);
        const value = (await client.get(key)) ?? '';
        expect(value).not.toContain('step 1');
        expect(value).not.toContain('Go on?');
      }
    } finally {
      client.disconnect();
    }
    await events.cancel();
    const resumed = sseReader(await resume(b, session, `${streamId}:0`));
    const replay = await readUntil(resumed, isQuestion);
    expect(replay.map(seqOf)).toEqual([1, 2, 3]);
    await resumed.cancel();
  });

  it('hostile Last-Event-IDs: another session’s stream, malformed, huge, prototype names: 400, and no event of anyone', async () => {
    const victim = await openLegacySession(send, { elicitation: {} }, {}, a.url);
    const events = sseReader(await send(legacyPost(call({ before: 1, after: 0, gapMs: 0 }), victim, {}, a.url)));
    const seen = await readUntil(events, isQuestion);
    const victimEvent = seen.at(-1)!.id!;
    const streamId = victimEvent.split(':')[0]!;
    const attacker = await openLegacySession(send, { elicitation: {} }, {}, b.url);
    for (const id of [
      `${streamId}:0`,
      victimEvent,
      'abc',
      `${streamId}:-1`,
      `${streamId}:1e3`,
      `${'x'.repeat(8000)}:1`,
      `${streamId}:${'9'.repeat(4000)}`,
      '__proto__',
      '__proto__:0',
      'constructor:0',
      'hasOwnProperty:1',
    ]) {
      for (const on of [a, b]) {
        const response = await resume(on, attacker, id);
        const text = await response.text();
        expect({ id: id.slice(0, 40), status: response.status }).toEqual({ id: id.slice(0, 40), status: 400 });
        expect(JSON.parse(text).error.message).toBe('Bad Request: Last-Event-ID names no stream this server can resume');
        expect(text).not.toContain('Go on?');
      }
    }
    await events.cancel();
  });
});

describe('two processes sharing one SQLite file (no publish/subscribe between them)', () => {
  let dir: string;
  let a: Instance, b: Instance;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'parley-resume-'));
    const store = `sqlite:${join(dir, 'store.db')}`;
    [a, b] = await Promise.all([
      startInstance({ PARLEY_TEST_STORE: store, ...SECRETS }),
      startInstance({ PARLEY_TEST_STORE: store, ...SECRETS }),
    ]);
    started.push(a, b);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the reconnect on B replays from the file, then finds the live events by looking: each once, in order', async () => {
    const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
    const events = sseReader(await send(legacyPost(call({ before: 10, after: 10, gapMs: 5 }), session, {}, a.url)));
    const first = await readUntil(events, (e) => e.data.params?.progress === 1);
    await events.cancel();
    const onB = sseReader(await resume(b, session, first.at(-1)!.id!));
    const beforeAnswer = await readUntil(onB, isQuestion);
    const question = beforeAnswer.at(-1)!;
    // Without publish/subscribe the answer reaches the call only on its own instance.
    const answer = { jsonrpc: '2.0', id: question.data.id, result: { action: 'accept', content: { go: true } } };
    expect((await send(legacyPost(answer, session, {}, a.url))).status).toBe(202);
    const all = [...first, ...beforeAnswer, ...(await readUntil(onB, () => false))];
    expect(all.map(seqOf)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    expect(all.at(-1)!.data.result).toBeDefined();
  });
});

describe('the official v1 client, its stream cut while a tool asks, reconnecting to the other instance', () => {
  let redis: RunningRedis;
  let a: Instance, b: Instance;
  beforeAll(async () => {
    redis = await startRedis({ password: PASSWORD });
    [a, b] = await Promise.all([
      startInstance({ PARLEY_TEST_STORE: `redis:${redis.url}`, ...SECRETS }),
      startInstance({ PARLEY_TEST_STORE: `redis:${redis.url}`, ...SECRETS }),
    ]);
    started.push(a, b);
  }, 60_000);
  afterAll(() => redis?.stop());

  it('sends Last-Event-ID to B, gets the question it missed, answers, and the call completes with every progress once', async () => {
    let cut = false;
    const resumptions: (string | null)[] = [];
    // Until the cut every request goes to A; the stream of the call breaks before the question reaches the client,
    // and from then on every request (the reconnect, the answer) goes to B, as a balancer would send it after A's link broke.
    const routed: typeof fetch = async (_input, init) => {
      const target = new URL(cut ? b.url : a.url);
      const headers = new Headers(init?.headers);
      if ((init?.method ?? 'GET') === 'GET') resumptions.push(headers.get('last-event-id'));
      const response = await fetch(target, init);
      const body = response.body;
      if (cut || init?.method !== 'POST' || !body || !(response.headers.get('content-type') ?? '').includes('text/event-stream'))
        return response;
      const decoder = new TextDecoder();
      const cutting = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (decoder.decode(chunk, { stream: true }).includes('elicitation/create')) {
            cut = true;
            controller.error(new Error('the connection to A broke'));
            return;
          }
          controller.enqueue(chunk);
        },
      });
      return new Response(body.pipeThrough(cutting), { status: response.status, headers: response.headers });
    };
    const client = new V1Client({ name: 'v1-resumes', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { go: true } }));
    const transport = new V1Transport(new URL(a.url), {
      fetch: routed,
      reconnectionOptions: { initialReconnectionDelay: 20, maxReconnectionDelay: 100, reconnectionDelayGrowFactor: 1, maxRetries: 5 },
    });
    await client.connect(transport);
    try {
      const progress: number[] = [];
      const result = await client.callTool({ name: 'count_and_ask', arguments: { before: 5, after: 5, gapMs: 5 } }, undefined, {
        onprogress: (p) => progress.push(p.progress),
        timeout: 20_000,
      });
      expect(cut).toBe(true);
      expect(resumptions.filter((id) => id !== null).length).toBeGreaterThanOrEqual(1);
      expect(resumptions.find((id) => id !== null)).toMatch(/^[A-Za-z0-9_-]+:[1-5]$/);
      expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(result.structuredContent ?? JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual({ steps: 10, go: true });
    } finally {
      await client.close();
    }
  });
});
