// A real redis-server that hangs (SIGSTOP), dies (SIGKILL, then restarted on its port) or fills up (maxmemory with
// noeviction) under an older client's requests, over TCP and through Redis over HTTP: each request ends while Redis is
// still down, with 503, Retry-After, its own id and a message that names the store; a question that can't be stored
// ends its call with a tool error that says so; once Redis is back everything works without a restart, and a question
// the store kept is answered. The log of each fault names no session, no store key, no record and no secret.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHandler, type FrontMcpConfigInput } from 'parley-mcp';
import { legacyDesk } from '../fixtures/legacy-desk';
import { LEGACY, legacyPost, request, sseReader } from '../helpers/legacy';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { read } from '../helpers/requests';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';
import { inboxServer } from '../inbox/inbox-helpers';

const PASSWORD = 'store-fault-canary-Rp71x';
const TOKEN = 'store-fault-canary-Tk93u';
/** Short, so a test that waits on it stays quick (the default is 5 s), yet long enough for a healthy Redis over HTTP on a
 * loaded 2-core machine: at 250 ms, initialize timed out there under a full parallel run. */
const TIMEOUT_MS = 1000;
const QUESTION = 'Close ticket'; // what close_owned asks: part of the stored record's body

type Kind = 'tcp' | 'http';

interface Rig {
  handler: ReturnType<typeof createFetchHandler>;
  redis: RunningRedis;
  upstash?: UpstashServer;
  /** Sends a request to the server, noting each session id it hands out. */
  send(request: Request): Promise<Response>;
  lines: string[];
  sessions: Set<string>;
  aofDir: string;
  close(): Promise<void>;
}

const rigs: Rig[] = [];
afterEach(async () => {
  await Promise.all(rigs.splice(0).map((rig) => rig.close()));
});

async function rig(kind: Kind): Promise<Rig> {
  const aofDir = mkdtempSync(join(tmpdir(), 'parley-store-faults-'));
  const redis = await startRedis({ password: PASSWORD, aofDir });
  const upstash = kind === 'http' ? await startUpstashServer(redis.url, { token: TOKEN }) : undefined;
  const lines: string[] = [];
  const line = (level: string) => (message: string, details?: unknown) =>
    lines.push(`${level} ${message}${details === undefined ? '' : ` ${inspect(details, { depth: Infinity, showHidden: true })}`}`);
  const store: FrontMcpConfigInput['redis'] = upstash ? { provider: 'upstash', url: upstash.url, token: upstash.token } : redis.url;
  const handler = createFetchHandler(
    legacyDesk({
      redis: store,
      elicitation: { enabled: true, storeTimeoutMs: TIMEOUT_MS },
      logger: { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') },
    }),
  );
  const sessions = new Set<string>();
  const made: Rig = {
    handler,
    redis,
    upstash,
    lines,
    sessions,
    aofDir,
    async send(r) {
      const response = await handler(r);
      const session = response.headers.get('mcp-session-id');
      if (session) sessions.add(session);
      return response;
    },
    async close() {
      await made.redis.stop();
      await handler.close({ graceMs: 0 }).catch(() => undefined);
      await upstash?.close().catch(() => undefined);
      rmSync(aofDir, { recursive: true, force: true });
    },
  };
  rigs.push(made);
  return made;
}

const initialize = () =>
  request('initialize', { protocolVersion: LEGACY, capabilities: { elicitation: {} }, clientInfo: { name: 'faults', version: '1' } });

async function openSession(rig: Rig): Promise<string> {
  const response = await rig.send(legacyPost(initialize()));
  expect(response.status).toBe(200);
  const session = response.headers.get('mcp-session-id')!;
  expect((await rig.send(legacyPost({ jsonrpc: '2.0', method: 'notifications/initialized' }, session))).status).toBe(202);
  return session;
}

const callTool = (ticket: string) => request('tools/call', { name: 'close_owned', arguments: { id: ticket } });

/** Calls close_owned, which asks; resolves once its question is out. */
async function ask(rig: Rig, session: string, ticket: string) {
  const events = sseReader(await rig.send(legacyPost(callTool(ticket), session)));
  const question = (await events.next())!.data;
  expect(question.method).toBe('elicitation/create');
  return { events, question };
}

const answer = (question: { id: string }, session: string) =>
  legacyPost({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { confirm: true } } }, session);

/** The store's refusal: 503, Retry-After, the request's own id, the store named. */
async function expectStoreRefusal(response: Response, id: string | number, kind: Kind) {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('5');
  const body = await response.json();
  expect(body).toMatchObject({ jsonrpc: '2.0', id, error: { code: -31003, data: { code: 'STORE_UNAVAILABLE', retryAfterSeconds: 5 } } });
  expect(body.error.message).toContain(`store (${kind === 'tcp' ? 'redis' : 'redis-http'})`);
}

/** The three requests of the issue, while the store is down: initialize, a call in a live session, an answer. */
async function expectRefusals(rig: Rig, session: string, waiting: { question: { id: string } }, kind: Kind) {
  const init = initialize();
  await expectStoreRefusal(await rig.send(legacyPost(init)), init.id, kind);
  const call = callTool('T-2');
  await expectStoreRefusal(await rig.send(legacyPost(call, session)), call.id, kind);
  await expectStoreRefusal(await rig.send(answer(waiting.question, session)), waiting.question.id, kind);
}

/**
 * A question asked now, in a new session, is answered and its call returns. Right after Redis comes back, one of the
 * store's connections (the subscriber's) may still be reconnecting: until it is, the call ends with the store's tool
 * error, and is made again.
 */
async function expectAnsweredNow(rig: Rig) {
  const session = await openSession(rig);
  for (let tries = 1; ; tries++) {
    const events = sseReader(await rig.send(legacyPost(callTool('T-9'), session)));
    const first = (await events.next())!.data;
    if (first.method === 'elicitation/create') {
      expect((await rig.send(answer(first, session))).status).toBe(202);
      expect((await events.next())!.data.result.structuredContent).toEqual({ closed: true, by: 'anonymous' });
      return;
    }
    expect(first.result._meta.code).toBe('STORE_UNAVAILABLE');
    expect(tries).toBeLessThan(50);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** No session id, store key, record or secret in anything the server logged; the cause of the fault is there. */
function expectCleanLog(rig: Rig, cause: RegExp) {
  const log = rig.lines.join('\n');
  expect(rig.sessions.size).toBeGreaterThan(1);
  for (const session of rig.sessions) expect(log).not.toContain(session);
  expect(log).not.toMatch(/sessionId\\?"\s*:\s*\\?"/);
  expect(log).not.toContain(QUESTION);
  for (const secret of [PASSWORD, TOKEN]) expect(log).not.toContain(secret);
  expect(log).toMatch(cause);
}

describe.each<Kind>(['tcp', 'http'])('the store failing under older clients (Redis over %s)', (kind) => {
  it('stopped (SIGSTOP): every request ends while Redis hangs; after SIGCONT the waiting question is answered', async () => {
    const r = await rig(kind);
    const session = await openSession(r);
    const waiting = await ask(r, session, 'T-1');
    r.redis.signal('SIGSTOP');
    try {
      await expectRefusals(r, session, waiting, kind);
    } finally {
      r.redis.signal('SIGCONT');
    }
    expect((await r.send(answer(waiting.question, session))).status).toBe(202);
    expect((await waiting.events.next())!.data.result.structuredContent).toEqual({ closed: true, by: 'anonymous' });
    await expectAnsweredNow(r);
    expectCleanLog(r, new RegExp(`no answer within ${TIMEOUT_MS} ms`));
    // The operator sees the outage end as well as begin.
    expect(r.lines.join('\n')).toMatch(/info Elicitation store \(redis\): answering again/);
  }, 20_000);

  it('killed, then restarted on its port: 503 while it is gone; after, the question it kept is answered', async () => {
    const r = await rig(kind);
    const session = await openSession(r);
    const waiting = await ask(r, session, 'T-1');
    const { port } = r.redis;
    r.redis.signal('SIGKILL');
    await r.redis.stop();
    await expectRefusals(r, session, waiting, kind);
    r.redis = await startRedis({ port, password: PASSWORD, aofDir: r.aofDir });
    // The same process, no restart: its connection comes back on its own (ioredis retries within 2 s).
    let status = 0;
    for (let tries = 0; tries < 100 && status !== 202; tries++) {
      status = (await r.send(answer(waiting.question, session))).status;
      if (status !== 202) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(202);
    expect((await waiting.events.next())!.data.result.structuredContent).toEqual({ closed: true, by: 'anonymous' });
    await expectAnsweredNow(r);
    expectCleanLog(r, /./);
  }, 30_000);

  it('full (maxmemory, noeviction): 503 for a new session, a tool error for a question it cannot keep; nothing lost', async () => {
    const r = await rig(kind);
    const session = await openSession(r);
    const waiting = await ask(r, session, 'T-1');
    const admin = new Redis(r.redis.url);
    try {
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      await admin.config('SET', 'maxmemory', '1');
      const init = initialize();
      await expectStoreRefusal(await r.send(legacyPost(init)), init.id, kind);
      const call = callTool('T-2');
      const refused = await read(await r.send(legacyPost(call, session)));
      expect(refused.body).toMatchObject({ id: call.id, result: { isError: true, _meta: { code: 'STORE_UNAVAILABLE' } } });
      expect(refused.body.result.content[0].text).toMatch(/question could not be kept\. The server's store \(redis(-http)?\) failed/);
      // The question asked before Redis filled up is still answered: nothing about it needs a write.
      expect((await r.send(answer(waiting.question, session))).status).toBe(202);
      expect((await waiting.events.next())!.data.result.structuredContent).toEqual({ closed: true, by: 'anonymous' });
      await admin.config('SET', 'maxmemory', '0');
      await expectAnsweredNow(r);
    } finally {
      admin.disconnect();
    }
    expectCleanLog(r, /OOM command not allowed/);
  }, 20_000);
});

describe('the store failing under older clients (Redis over tcp, closing)', () => {
  it('close() while Redis hangs drops the connection rather than wait on it; the waiting call ends with SHUTTING_DOWN', async () => {
    const r = await rig('tcp');
    const session = await openSession(r);
    const waiting = await ask(r, session, 'T-1');
    r.redis.signal('SIGSTOP');
    await r.handler.close({ graceMs: 0 });
    expect((await waiting.events.next())!.data.error).toMatchObject({ code: -31002, data: { code: 'SHUTTING_DOWN' } });
  }, 20_000);
});

describe('the store failing under older clients (SQLite)', () => {
  it('a file another process holds locked: 503 once the lock outlasts the timeout; the next request after it is served', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-store-faults-'));
    const path = join(dir, 'store.sqlite');
    const handler = createFetchHandler(legacyDesk({ sqlite: { path }, elicitation: { enabled: true, storeTimeoutMs: TIMEOUT_MS } }));
    const other = new Database(path);
    try {
      await handler(legacyPost(initialize())); // the store exists (its table too) before the other holds it
      other.pragma('journal_mode = WAL');
      other.exec('BEGIN EXCLUSIVE');
      const init = initialize();
      const refused = await handler(legacyPost(init));
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ id: init.id, error: { code: -31003, data: { code: 'STORE_UNAVAILABLE' } } });
      other.exec('ROLLBACK');
      expect((await handler(legacyPost(initialize()))).status).toBe(200);
    } finally {
      other.close();
      await handler.close({ graceMs: 0 });
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);
});

describe('the store failing under the inbox (persistent questions in Redis)', () => {
  it('a signed-in page asks while Redis hangs: 503 with Retry-After naming the store; after SIGCONT it is served', async () => {
    const redis = await startRedis();
    const s = inboxServer({
      elicitation: { enabled: true, storeTimeoutMs: TIMEOUT_MS, persistent: { storage: { type: 'redis', redis: redis.url } } },
    });
    try {
      const cookie = await s.signIn();
      redis.signal('SIGSTOP');
      let refused: Response;
      try {
        refused = await s.request('/_frontmcp/questions', { cookie });
      } finally {
        redis.signal('SIGCONT');
      }
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toMatchObject({ error: 'store_unavailable', message: expect.stringContaining('store (redis)') });
      expect(await s.questions(cookie)).toMatchObject({ questions: [] });
    } finally {
      await s.handler.close({ graceMs: 0 });
      await redis.stop();
    }
  }, 20_000);
});
