// Issue #31, item 3: subscriptions/listen streams are capped per caller (429) and per process (503), each refusal with
// Retry-After and a JSON-RPC error naming the option; closing a stream frees its place at once, and a stream that has
// sent no notification for http.listen.idleTtlMs ends with its closing result.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFetchHandler, type FrontMcpConfigInput } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { mcpRequest } from '../helpers/requests';
import { eventReader } from '../helpers/sse';
import { config as hostile } from './fixture';

const withListen = (listen?: Record<string, number>): FrontMcpConfigInput => ({ ...hostile, http: listen ? { listen } : {} });
type Who = { user: { sub: string } } | undefined;
type Handler = (request: Request, options?: { auth?: Who }) => Promise<Response>;

let nextId = 1;
/** One listen request: `id` is its JSON-RPC id, so a refusal can be checked to carry it. */
function listenRequest(url = 'http://127.0.0.1/mcp', signal?: AbortSignal) {
  const id = `listen-${nextId++}`;
  const request = mcpRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }, { url });
  return {
    id,
    request: request
      .json()
      .then((body) => new Request(url, { method: 'POST', headers: request.headers, body: JSON.stringify({ ...body, id }), signal })),
  };
}
async function listen(handler: Handler, who?: Who) {
  const { id, request } = listenRequest();
  return { id, response: await handler(await request, { auth: who }) };
}
/** An acknowledged stream, and the function that closes it as a client does. */
async function opened(handler: Handler, who?: Who) {
  const { response } = await listen(handler, who);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const events = eventReader(response);
  expect((await events.next()).method).toBe('notifications/subscriptions/acknowledged');
  return events;
}
async function refusal(response: Response) {
  return { status: response.status, retryAfter: Number(response.headers.get('retry-after')), body: await response.json() };
}

describe('a flood of listen streams', () => {
  it('meets the defaults: one anonymous caller gets 100 streams, then 429 with Retry-After under its request id', async () => {
    const handler = createFetchHandler(hostile);
    const streams = [];
    for (let i = 0; i < 100; i++) streams.push(await opened(handler));
    const { id, response } = await listen(handler);
    const refused = await refusal(response);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      id,
      error: {
        code: -31000,
        message: expect.stringContaining('http.listen.maxPerCaller'),
        data: { limit: 'http.listen.maxPerCaller', max: 100, retryAfterSeconds: refused.retryAfter },
      },
    });
    // Another caller is not held by the anonymous caller's limit; closing one stream frees its place at once.
    await (await opened(handler, { user: { sub: 'nour' } })).cancel();
    await streams.pop()!.cancel();
    streams.push(await opened(handler));
    for (const stream of streams) await stream.cancel();
  });

  it('stops the process at http.listen.maxTotal with 503, whoever asks, until a stream closes', async () => {
    const handler = createFetchHandler(withListen({ maxPerCaller: 3, maxTotal: 5 }));
    const nour = { user: { sub: 'nour' } };
    const sam = { user: { sub: 'sam' } };
    const streams = [await opened(handler, nour), await opened(handler, nour), await opened(handler, nour)];
    expect((await refusal((await listen(handler, nour)).response)).status).toBe(429);
    streams.push(await opened(handler, sam), await opened(handler, sam));
    const { id, response } = await listen(handler, { user: { sub: 'kim' } });
    const refused = await refusal(response);
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({ id, error: { code: -31000, data: { limit: 'http.listen.maxTotal', max: 5 } } });
    await streams.shift()!.cancel(); // one of nour's
    streams.push(await opened(handler, { user: { sub: 'kim' } }));
    for (const stream of streams) await stream.cancel();
  });

  it('refuses bad params without counting them', async () => {
    const handler = createFetchHandler(withListen({ maxPerCaller: 1 }));
    for (let i = 0; i < 3; i++) {
      const request = mcpRequest('subscriptions/listen', { notifications: 'all' });
      expect((await (await handler(request)).json()).error.code).toBe(-32602);
    }
    await (await opened(handler)).cancel();
  });
});

describe('over a real Node server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve(withListen({ maxPerCaller: 4 }), { port: 0 });
  });
  afterAll(() => server?.close());

  it('frees the places of streams whose clients went away', async () => {
    const open = async () => {
      const controller = new AbortController();
      const { request } = listenRequest(server.url, controller.signal);
      const response = await fetch(await request, { duplex: 'half' } as RequestInit);
      return { response, controller };
    };
    const held = [];
    for (let i = 0; i < 4; i++) {
      const stream = await open();
      expect((await eventReader(stream.response).next()).method).toBe('notifications/subscriptions/acknowledged');
      held.push(stream);
    }
    expect((await open()).response.status).toBe(429);
    for (const { controller } of held) controller.abort();
    await vi.waitFor(async () => {
      const again = await open();
      expect(again.response.status).toBe(200);
      again.controller.abort();
    });
  });
});

describe('an idle listen stream', () => {
  afterEach(() => void vi.useRealTimers());

  it('ends with its closing result once it sent no notification for idleTtlMs; a notification keeps it open', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const handler = createFetchHandler(withListen({ idleTtlMs: 20_000, maxPerCaller: 1 }));
    const { id, response } = await listen(handler);
    const events = eventReader(response);
    expect((await events.next()).method).toBe('notifications/subscriptions/acknowledged');
    vi.advanceTimersByTime(15_000); // a keep-alive
    handler.changes.toolsListChanged();
    expect((await events.next()).method).toBe('notifications/tools/list_changed');
    vi.advanceTimersByTime(15_000); // 15 s since the notification: a keep-alive
    expect((await refusal((await listen(handler)).response)).status).toBe(429);
    vi.advanceTimersByTime(15_000); // 30 s since: idle
    expect(await events.next()).toEqual({
      jsonrpc: '2.0',
      id,
      result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': id } },
    });
    await expect(events.next()).rejects.toThrow('The stream ended');
    await (await opened(handler)).cancel(); // its place is free
  });
});
