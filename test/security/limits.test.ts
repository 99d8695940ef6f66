// Issue #14, item 5: limits a flood cannot get past. Older clients' sessions, their streams and their waiting questions
// are capped per caller and per process, idle sessions end, and a refusal says which limit and when to come back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App, Tool, ToolContext, createFetchHandler, z, type FrontMcpConfigInput } from 'parley-mcp';
import { ANONYMOUS } from '../../src/model/tool-types';
import { handlePost } from '../../src/http/endpoint';
import { fetchResponder } from '../../src/protocol';
import { EventStream, MAX_KEPT_EVENTS } from '../../src/http/legacy/event-stream';
import { parseConfig } from '../../src/model/config';
import { buildServer } from '../../src/app/build-server';
import { StdioLegacySession } from '../../src/stdio/legacy-session';
import { legacyDesk } from '../fixtures/legacy-desk';
import { LEGACY, legacyPost, request, sseReader } from '../helpers/legacy';
import { read } from '../helpers/requests';

@Tool({ name: 'ask_two', description: 'Asks two questions at once', inputSchema: {} })
class AskTwo extends ToolContext {
  async execute() {
    const schema = z.object({ ok: z.boolean() });
    const [a, b] = await Promise.all([this.elicit('First?', schema), this.elicit('Second?', schema)]);
    return { a: a.status, b: b.status };
  }
}

@App({ id: 'limits', name: 'Limit tools', tools: [AskTwo] })
class LimitTools {}

type Limits = { sessions?: Record<string, number>; pending?: Record<string, number> };
const configWith = ({ sessions, pending }: Limits): FrontMcpConfigInput => {
  const desk = legacyDesk();
  return {
    ...desk,
    apps: [...(desk.apps ?? []), LimitTools],
    elicitation: { enabled: true, ...(pending ? { pending } : {}) },
    http: { sessions },
    logging: { level: 'error' },
  };
};

const nour = { user: { sub: 'nour' } };
const sam = { user: { sub: 'sam' } };
type Who = typeof nour | undefined;
type Handler = (request: Request, options?: { auth?: Who }) => Promise<Response>;

const init = () =>
  request('initialize', { protocolVersion: LEGACY, capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } });
/** One initialize as `who` (anonymous without): the response, and the JSON-RPC id it was sent with. */
async function initialize(handler: Handler, who?: Who) {
  const message = init();
  const response = await handler(legacyPost(message), { auth: who });
  return { response, id: message.id, session: response.headers.get('mcp-session-id') };
}
const open = async (handler: Handler, who?: Who): Promise<string> => {
  const { response, session } = await initialize(handler, who);
  if (response.status !== 200 || !session) throw new Error(`initialize got ${response.status}`);
  return session;
};
const listTools = (handler: Handler, session: string, who?: Who) => handler(legacyPost(request('tools/list'), session), { auth: who });
const callTool = (handler: Handler, session: string, name: string, args: Record<string, unknown> = {}, who?: Who) =>
  handler(legacyPost(request('tools/call', { name, arguments: args }), session), { auth: who });
const answer = (handler: Handler, session: string, id: string, who?: Who) =>
  handler(legacyPost({ jsonrpc: '2.0', id, result: { action: 'accept', content: { confirm: true } } }, session), { auth: who });
const getStream = (handler: Handler, session: string) =>
  handler(
    new Request('http://127.0.0.1/mcp', {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': LEGACY },
    }),
  );
const del = (handler: Handler, session: string, who?: Who) =>
  handler(new Request('http://127.0.0.1/mcp', { method: 'DELETE', headers: { 'mcp-session-id': session } }), { auth: who });

/** A refusal: its status, its Retry-After in seconds, and the JSON-RPC error with the id it answers. */
async function refusal(response: Response) {
  const { status, body } = await read(response);
  return { status, retryAfter: Number(response.headers.get('retry-after')), session: response.headers.get('mcp-session-id'), body };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the limits in the config', () => {
  it('default to 1,000 sessions, 100 per caller, 30 minutes idle, 24 hours, 16 streams, and 16/100 waiting questions', () => {
    const config = parseConfig({ info: { name: 'x', version: '1' } });
    expect(config.http.sessions).toEqual({
      maxTotal: 1000,
      maxPerCaller: 100,
      idleTtlMs: 30 * 60_000,
      ttlMs: 24 * 60 * 60_000,
      maxStreams: 16,
    });
    expect(config.elicitation.pending).toEqual({ maxPerSession: 16, maxPerCaller: 100 });
    // A partial setting keeps the other defaults.
    expect(parseConfig({ info: { name: 'x', version: '1' }, http: { sessions: { maxTotal: 5 } } }).http.sessions).toMatchObject({
      maxTotal: 5,
      maxPerCaller: 100,
    });
  });

  it('refuses a limit that is not a positive integer, or one it does not know, naming the option', () => {
    const info = { name: 'x', version: '1' };
    expect(() => parseConfig({ info, http: { sessions: { maxTotal: 0 } } })).toThrow(/http\.sessions\.maxTotal/);
    expect(() => parseConfig({ info, http: { sessions: { idleTtlMs: 1.5 } } })).toThrow(/http\.sessions\.idleTtlMs/);
    expect(() => parseConfig({ info, http: { sessions: { maxSessions: 3 } } })).toThrow(/http\.sessions/);
    expect(() => parseConfig({ info, elicitation: { enabled: true, pending: { maxPerSession: -1 } } })).toThrow(
      /elicitation\.pending\.maxPerSession/,
    );
  });
});

describe('sessions per caller', () => {
  it('refuses a caller past maxPerCaller with 429, Retry-After and a JSON-RPC error; others and existing sessions go on', async () => {
    const handler = createFetchHandler(configWith({ sessions: { maxPerCaller: 3, maxTotal: 10, idleTtlMs: 60_000 } })) as Handler;
    const mine = [await open(handler, nour), await open(handler, nour), await open(handler, nour)];
    const { response, id } = await initialize(handler, nour);
    const refused = await refusal(response);
    expect(refused.status).toBe(429);
    expect(refused.session).toBeNull();
    expect(refused.retryAfter).toBeGreaterThanOrEqual(59);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      id,
      error: {
        code: -31000,
        message: `Too many sessions for this caller: at most 3 (http.sessions.maxPerCaller). End a session you no longer use (DELETE with its Mcp-Session-Id), or retry after ${refused.retryAfter} s`,
        data: { limit: 'http.sessions.maxPerCaller', max: 3, retryAfterSeconds: refused.retryAfter },
      },
    });
    // Another caller is not held back, and nour's sessions keep working.
    await open(handler, sam);
    for (const session of mine) expect((await listTools(handler, session, nour)).status).toBe(200);
    // A closed session frees its place.
    expect((await del(handler, mine[0]!, nour)).status).toBe(204);
    await open(handler, nour);
    expect((await initialize(handler, nour)).response.status).toBe(429);
  });

  it('counts every anonymous caller as one caller, and says so', async () => {
    const handler = createFetchHandler(configWith({ sessions: { maxPerCaller: 2, maxTotal: 10 } })) as Handler;
    await open(handler);
    await open(handler);
    const refused = await refusal((await initialize(handler)).response);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toContain('anonymous callers (without a token they count as one caller)');
    expect(refused.body.error.data.limit).toBe('http.sessions.maxPerCaller');
    await open(handler, nour); // a caller with a name still gets in
  });
});

describe('sessions in total', () => {
  it('refuses anyone past maxTotal with 503 and Retry-After; the sessions already open keep working', async () => {
    const handler = createFetchHandler(configWith({ sessions: { maxPerCaller: 10, maxTotal: 3, idleTtlMs: 120_000 } })) as Handler;
    const held = [await open(handler, nour), await open(handler, nour), await open(handler, sam)];
    const { response, id } = await initialize(handler);
    const refused = await refusal(response);
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBeGreaterThanOrEqual(119);
    expect(refused.retryAfter).toBeLessThanOrEqual(120);
    expect(refused.body.id).toBe(id);
    expect(refused.body.error).toMatchObject({ code: -31000, data: { limit: 'http.sessions.maxTotal', max: 3 } });
    expect(refused.body.error.message).toBe(
      `The server holds as many sessions as it allows (3, http.sessions.maxTotal): retry after ${refused.retryAfter} s`,
    );
    expect((await listTools(handler, held[0]!, nour)).status).toBe(200);
    expect((await listTools(handler, held[2]!, sam)).status).toBe(200);
    expect((await del(handler, held[2]!, sam)).status).toBe(204);
    await open(handler);
  });

  it('holds no more than maxTotal sessions however many initializes arrive', async () => {
    const server = await buildServer(configWith({ sessions: { maxPerCaller: 25, maxTotal: 40 } }));
    const handler: Handler = (r, options) => handlePost(server, r, { auth: options?.auth });
    const statuses = new Map<number, number>();
    const callers = Array.from({ length: 10 }, (_, i) => ({ user: { sub: `flood-${i}` } }));
    for (let round = 0; round < 20; round++) {
      const responses = await Promise.all(
        Array.from({ length: 100 }, (_, i) => handler(legacyPost(init()), { auth: i % 2 ? undefined : callers[i % 10] })),
      );
      for (const r of responses) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
    expect(server.legacy.sessions.count()).toBe(40);
    for (const caller of ['anonymous', ...callers.map((c) => `#${c.user.sub}`)])
      expect(server.legacy.sessions.count(caller)).toBeLessThanOrEqual(25);
    expect(statuses.get(200)).toBe(40);
    expect((statuses.get(429) ?? 0) + (statuses.get(503) ?? 0)).toBe(2000 - 40);
  });
});

describe('idle sessions', () => {
  it('end idleTtlMs after their last request, free their place, and every request keeps one alive', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const server = await buildServer(configWith({ sessions: { maxPerCaller: 2, idleTtlMs: 1_000 } }));
    const handler: Handler = (r, options) => handlePost(server, r, { auth: options?.auth });
    const kept = await open(handler);
    const left = await open(handler);
    expect((await initialize(handler)).response.status).toBe(429);
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(600);
      expect((await listTools(handler, kept)).status).toBe(200); // 2.4 s in all, never 1 s quiet
    }
    expect((await listTools(handler, left)).status).toBe(404);
    expect(server.legacy.sessions.count()).toBe(1);
    await open(handler); // its place is free again
    vi.advanceTimersByTime(1_000);
    expect((await listTools(handler, kept)).status).toBe(404);
  });

  it('sweeps idle sessions when another request comes, without being asked for them', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const server = await buildServer(configWith({ sessions: { maxPerCaller: 50, idleTtlMs: 1_000 } }));
    const handler: Handler = (r, options) => handlePost(server, r, { auth: options?.auth });
    for (let i = 0; i < 30; i++) await open(handler);
    expect(server.legacy.sessions.count()).toBe(30);
    vi.advanceTimersByTime(1_001);
    const fresh = await open(handler);
    expect(server.legacy.sessions.count()).toBe(1);
    expect((await listTools(handler, fresh)).status).toBe(200);
  });

  it('end ttlMs after initialize however active they are', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const handler = createFetchHandler(configWith({ sessions: { idleTtlMs: 1_000, ttlMs: 2_000 } })) as Handler;
    const session = await open(handler);
    for (let i = 0; i < 3; i++) {
      vi.advanceTimersByTime(600);
      expect((await listTools(handler, session)).status).toBe(200);
    }
    vi.advanceTimersByTime(300); // 2.1 s after initialize
    expect((await listTools(handler, session)).status).toBe(404);
  });

  it('is not a session with a call still running: its question can be answered after idleTtlMs', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const server = await buildServer(configWith({ sessions: { idleTtlMs: 1_000 } }));
    const handler: Handler = (r, options) => handlePost(server, r, { auth: options?.auth });
    const session = await open(handler);
    const events = sseReader(await callTool(handler, session, 'close_ticket', { id: 'T-1' }));
    const question = (await events.next())!;
    vi.advanceTimersByTime(5_000);
    await open(handler); // a request that sweeps
    expect((await answer(handler, session, question.data.id)).status).toBe(202);
    expect((await events.next())!.data.result.structuredContent).toMatchObject({ closed: true, id: 'T-1' });
  });
});

describe('streams per session', () => {
  it('refuses a stream past maxStreams with 429 and Retry-After; the session serves plain requests meanwhile', async () => {
    const handler = createFetchHandler(configWith({ sessions: { maxStreams: 2 } })) as Handler;
    const session = await open(handler);
    const first = sseReader(await callTool(handler, session, 'close_ticket', { id: 'T-1' }));
    const second = sseReader(await callTool(handler, session, 'close_ticket', { id: 'T-2' }));
    const asked = [(await first.next())!, (await second.next())!];
    const third = request('tools/call', { name: 'close_ticket', arguments: { id: 'T-3' } });
    const refused = await refusal(await handler(legacyPost(third, session)));
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe(5);
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      id: third.id,
      error: {
        code: -31000,
        message:
          'Too many open streams in this session: at most 2 (http.sessions.maxStreams). Wait for a call to finish, or close a stream, and try again',
        data: { limit: 'http.sessions.maxStreams', max: 2, retryAfterSeconds: 5 },
      },
    });
    const get = await refusal(await getStream(handler, session));
    expect(get.status).toBe(429);
    expect(get.body.error.data.limit).toBe('http.sessions.maxStreams');
    expect((await listTools(handler, session)).status).toBe(200);
    // A call that finished and was delivered frees its stream.
    expect((await answer(handler, session, asked[0]!.data.id)).status).toBe(202);
    expect((await first.next())!.data.result).toBeDefined();
    expect(await first.next()).toBeUndefined();
    const fourth = await callTool(handler, session, 'close_ticket', { id: 'T-4' });
    expect(fourth.headers.get('content-type')).toBe('text/event-stream');
    await fourth.body!.cancel();
    await second.cancel();
  });

  it('forgets a finished stream nobody came back for, to make room for a new one', async () => {
    const handler = createFetchHandler(configWith({ sessions: { maxStreams: 1 } })) as Handler;
    const session = await open(handler);
    const events = sseReader(await callTool(handler, session, 'close_ticket', { id: 'T-1' }));
    const question = (await events.next())!;
    await events.cancel(); // the client leaves; the call finishes with nobody to read it
    expect((await answer(handler, session, question.data.id)).status).toBe(202);
    // The call finishes a moment after its answer is taken; until then its stream is still open, and the session full.
    let response: Response | undefined;
    for (let tries = 0; tries < 100 && response?.status !== 200; tries++) {
      if (tries) await new Promise((r) => setTimeout(r, 10));
      response = await callTool(handler, session, 'close_ticket', { id: 'T-2' });
    }
    const next = sseReader(response!);
    expect((await next.next())!.data.method).toBe('elicitation/create');
    await next.cancel();
  });

  it('keeps at most MAX_KEPT_EVENTS events for a client that never reads them', async () => {
    const stream = new EventStream('s');
    for (let i = 1; i <= 1000; i++) stream.send({ n: i });
    const events = sseReader(stream.connect(fetchResponder, 0));
    const seen: number[] = [];
    for (;;) {
      const event = await Promise.race([events.next(), new Promise<undefined>((r) => setTimeout(r, 50))]);
      if (!event) break;
      seen.push(event.data.n);
    }
    expect(seen.length).toBeLessThanOrEqual(MAX_KEPT_EVENTS);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toBe(1000);
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => 1000 - seen.length + 1 + i));
    await events.cancel();
  });
});

describe('questions waiting per session and per caller', () => {
  it('ends a call that asks past elicitation.pending.maxPerSession with a LIMIT_REACHED tool error, and frees what it asked', async () => {
    const server = await buildServer(configWith({ pending: { maxPerSession: 1 } }));
    const handler: Handler = (r, options) => handlePost(server, r, { auth: options?.auth });
    const session = await open(handler);
    const events = sseReader(await callTool(handler, session, 'ask_two'));
    let result: any;
    for (let event = await events.next(); event && !result; event = await events.next()) result = event.data.result;
    expect(result).toMatchObject({ isError: true, _meta: { code: 'LIMIT_REACHED' } });
    expect(result.content[0].text).toContain('Too many questions waiting in this session: at most 1 (elicitation.pending.maxPerSession)');
    await expect.poll(() => server.legacy.pending.waiting(session)).toBe(0);
    // The session can be asked again.
    const again = sseReader(await callTool(handler, session, 'close_ticket', { id: 'T-1' }));
    expect((await again.next())!.data.method).toBe('elicitation/create');
    await again.cancel();
  });

  it('refuses a question past elicitation.pending.maxPerCaller across the caller’s sessions, not another caller’s', async () => {
    const handler = createFetchHandler(configWith({ pending: { maxPerCaller: 2 } })) as Handler;
    const sessions = [await open(handler, nour), await open(handler, nour), await open(handler, nour)];
    const waiting = [];
    for (const session of sessions.slice(0, 2)) {
      const events = sseReader(await callTool(handler, session, 'close_ticket', { id: 'T' }, nour));
      waiting.push({ events, question: (await events.next())! });
    }
    const third = sseReader(await callTool(handler, sessions[2]!, 'close_ticket', { id: 'T' }, nour));
    const result = (await third.next())!.data.result;
    expect(result).toMatchObject({ isError: true, _meta: { code: 'LIMIT_REACHED' } });
    expect(result.content[0].text).toContain('at most 2 (elicitation.pending.maxPerCaller)');
    const other = sseReader(await callTool(handler, await open(handler, sam), 'close_ticket', { id: 'T' }, sam));
    expect((await other.next())!.data.method).toBe('elicitation/create');
    await other.cancel();
    // An answered question frees its place.
    expect((await answer(handler, sessions[0]!, waiting[0]!.question.data.id, nour)).status).toBe(202);
    expect((await waiting[0]!.events.next())!.data.result.structuredContent).toMatchObject({ closed: true });
    const fourth = sseReader(await callTool(handler, sessions[2]!, 'close_ticket', { id: 'T' }, nour));
    expect((await fourth.next())!.data.method).toBe('elicitation/create');
    await fourth.cancel();
    await waiting[1]!.events.cancel();
  });

  it('holds over stdio too: the process is one session, and a call past the limit ends with LIMIT_REACHED', async () => {
    const server = await buildServer(configWith({ pending: { maxPerSession: 1 } }));
    const sent: any[] = [];
    const session = new StdioLegacySession(server, ANONYMOUS, (m) => sent.push(m), {
      protocolVersion: LEGACY,
      capabilities: { elicitation: {} },
    });
    const signal = new AbortController().signal;
    const result = await session.handle('tools/call', { name: 'ask_two', arguments: {} }, signal);
    expect(result).toMatchObject({ isError: true, _meta: { code: 'LIMIT_REACHED' } });
    // The question it did ask stops waiting once the call is over, so the next call can ask.
    const asked = sent.filter((m) => m.method === 'elicitation/create');
    expect(asked.length).toBeLessThanOrEqual(1);
    const next = session.handle('tools/call', { name: 'close_ticket', arguments: { id: 'T-9' } }, signal);
    await expect.poll(() => sent.filter((m) => m.method === 'elicitation/create').length).toBe(asked.length + 1);
    const question = sent.filter((m) => m.method === 'elicitation/create').at(-1);
    await session.receive({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { confirm: true } } });
    expect(await next).toMatchObject({ structuredContent: { closed: true, id: 'T-9' } });
  });
});

describe('sessions in a store two instances share (SQLite)', () => {
  it('end when idle on every instance, live on while either serves them, and count against each instance’s caps', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const dir = mkdtempSync(join(tmpdir(), 'parley-limits-'));
    try {
      const shared = (sessions: Record<string, number>) => ({ ...configWith({ sessions }), sqlite: { path: join(dir, 'store.db') } });
      const [a, b] = await Promise.all([buildServer(shared({ idleTtlMs: 1_000 })), buildServer(shared({ idleTtlMs: 1_000, maxTotal: 1 }))]);
      expect(a.elicitationStore?.sessionsDistributed).toBe(true);
      const onA: Handler = (r, options) => handlePost(a, r, { auth: options?.auth });
      const onB: Handler = (r, options) => handlePost(b, r, { auth: options?.auth });
      const session = await open(onA);
      // Served by B only: B renews the stored record, so A still knows the session after more than idleTtlMs.
      for (let i = 0; i < 4; i++) {
        vi.advanceTimersByTime(600);
        expect((await listTools(onB, session)).status).toBe(200);
      }
      expect((await listTools(onA, session)).status).toBe(200);
      // B holds one session at most, its own or another instance's: a second one served there is refused with 503.
      const second = await open(onA);
      const refused = await refusal(await listTools(onB, second));
      expect(refused.status).toBe(503);
      expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
      expect(refused.body.error.data.limit).toBe('http.sessions.maxTotal');
      expect((await listTools(onA, second)).status).toBe(200);
      // Quiet for idleTtlMs: the store forgets it, and so does every instance.
      vi.advanceTimersByTime(1_001);
      expect((await listTools(onA, session)).status).toBe(404);
      expect((await listTools(onB, session)).status).toBe(404);
      await Promise.all([a.elicitationStore?.backend.close(), b.elicitationStore?.backend.close()]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
