import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, createFetchHandler } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/conformance/server';
import { mcpRequest, meta, read } from '../helpers/requests';
import { eventReader, parseEvents } from '../helpers/sse';

const cancelled: string[] = [];
let wake = () => {};
const aborted = () => new Promise<void>((resolve) => (wake = resolve));

@Tool({ name: 'wait_for_cancel', description: 'Streams progress, then waits until the client goes away', inputSchema: {} })
class WaitForCancel extends ToolContext {
  async execute() {
    this.progress(1);
    await new Promise<void>((resolve) => this.signal.addEventListener('abort', () => resolve(), { once: true }));
    cancelled.push('streamed');
    wake();
    this.progress(2); // after the client left: sent nowhere
    return 'too late';
  }
}

@Tool({ name: 'wait_quietly', description: 'Waits without streaming until the client goes away', inputSchema: {} })
class WaitQuietly extends ToolContext {
  async execute() {
    await new Promise<void>((resolve) => this.signal.addEventListener('abort', () => resolve(), { once: true }));
    cancelled.push('quiet');
    wake();
    return 'too late';
  }
}

@Tool({ name: 'log_levels', description: 'Logs at three levels', inputSchema: {} })
class LogLevels extends ToolContext {
  execute() {
    this.log('debug', 'detail');
    this.log('warning', { disk: 'low' }, 'storage');
    this.log('error', 'broken');
    this.progress(5);
    this.progress(5); // not increasing: dropped
    this.progress(7, 10, 'most');
    return 'logged';
  }
}

@App({ id: 'streams', tools: [WaitForCancel, WaitQuietly, LogLevels] })
class Streams {}

const full = { ...config, apps: [...config.apps!, Streams] };
const handler = createFetchHandler(full);
const withMeta = (extra: Record<string, unknown>) => ({ _meta: { ...meta({ elicitation: {} }), ...extra } });

describe("request-scoped notifications on the request's own SSE stream", () => {
  it('streams increasing progress for a progressToken, then the response, with X-Accel-Buffering: no', async () => {
    const response = await handler(
      mcpRequest('tools/call', { name: 'test_tool_with_progress', arguments: {}, ...withMeta({ progressToken: 'p-1' }) }),
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const events = parseEvents(await response.text());
    expect(events.slice(0, 3)).toEqual(
      [0, 50, 100].map((progress) => ({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p-1', progress, total: 100 },
      })),
    );
    expect(events[3]).toMatchObject({ result: { resultType: 'complete', content: [{ type: 'text' }] } });
    expect(events).toHaveLength(4);
  });

  it('answers with plain JSON when nothing streams: no progressToken, no log level', async () => {
    const response = await handler(mcpRequest('tools/call', { name: 'test_logging_tool', arguments: {} }));
    expect(response.headers.get('content-type')).toBe('application/json');
    expect((await response.json()).result.content[0].text).toContain('Logged three lines');
  });

  it('sends log lines only at or above the level the request names, and drops progress that does not increase', async () => {
    const response = await handler(
      mcpRequest('tools/call', {
        name: 'log_levels',
        arguments: {},
        ...withMeta({ 'io.modelcontextprotocol/logLevel': 'warning', progressToken: 7 }),
      }),
    );
    const events = parseEvents(await response.text());
    expect(events.map((e) => e.method ?? 'response')).toEqual([
      'notifications/message',
      'notifications/message',
      'notifications/progress',
      'notifications/progress',
      'response',
    ]);
    expect(events[0].params).toEqual({ level: 'warning', data: { disk: 'low' }, logger: 'storage' });
    expect(events[1].params).toEqual({ level: 'error', data: 'broken' });
    expect(events[3].params).toEqual({ progressToken: 7, progress: 7, total: 10, message: 'most' });
  });

  it('refuses a log level that is not one of the eight with -32602, on every method, before anything runs', async () => {
    const loud = withMeta({ 'io.modelcontextprotocol/logLevel': 'loud' });
    for (const request of [mcpRequest('tools/call', { name: 'log_levels', arguments: {}, ...loud }), mcpRequest('tools/list', loud)]) {
      const { status, body } = await read(await handler(request));
      expect([status, body.error.code, body.error.message]).toEqual([400, -32602, expect.stringContaining('logLevel"] must be one of')]);
    }
  });

  it('puts a question on the stream as the result, never as a server→client request', async () => {
    const response = await handler(
      mcpRequest('tools/call', { name: 'test_input_required_result_elicitation', arguments: {}, ...withMeta({ progressToken: 'q' }) }),
    );
    const body = await response.json();
    expect(body.result.resultType).toBe('input_required');
    expect(body).not.toHaveProperty('method');
  });
});

describe('subscriptions/listen', () => {
  const listen = (notifications: unknown, id: string | number = 'sub-1') => {
    const request = mcpRequest('subscriptions/listen', { notifications });
    return request
      .json()
      .then((body) =>
        handler(new Request(request.url, { method: 'POST', headers: request.headers, body: JSON.stringify({ ...body, id }) })),
      );
  };

  it('acknowledges first with what it honours, then forwards only the opted-in changes, each tagged with the listen id', async () => {
    const response = await listen(
      { toolsListChanged: true, resourceSubscriptions: ['test://watched-resource'], unknownKind: true },
      'sub-1',
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = eventReader(response);
    const tag = { 'io.modelcontextprotocol/subscriptionId': 'sub-1' };
    expect(await events.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true, resourceSubscriptions: ['test://watched-resource'] }, _meta: tag },
    });
    handler.changes.promptsListChanged(); // not asked for
    handler.changes.resourceUpdated('test://static-text'); // not subscribed
    handler.changes.toolsListChanged();
    handler.changes.resourceUpdated('test://watched-resource');
    expect(await events.next()).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: tag } });
    expect(await events.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'test://watched-resource', _meta: tag },
    });
    await events.cancel();
  });

  it('hears changes a tool announces from inside a call', async () => {
    const events = eventReader(await listen({ promptsListChanged: true }, 7));
    expect((await events.next()).params.notifications).toEqual({ promptsListChanged: true });
    await handler(mcpRequest('tools/call', { name: 'test_trigger_prompt_change', arguments: {} }));
    expect(await events.next()).toMatchObject({
      method: 'notifications/prompts/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } },
    });
    await events.cancel();
  });

  it('answers bad params with a plain JSON-RPC -32602 before any stream opens', async () => {
    for (const notifications of [undefined, 'all', { resourceSubscriptions: 'test://x' }]) {
      const response = await listen(notifications);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect((await response.json()).error.code).toBe(-32602);
    }
  });
});

describe('a client that goes away cancels the call (over a real Node server)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve(full, { port: 0 });
  });
  afterAll(() => server.close());

  const post = (name: string, signal: AbortSignal, progressToken?: string) => {
    const request = mcpRequest(
      'tools/call',
      { name, arguments: {}, ...withMeta(progressToken ? { progressToken } : {}) },
      { url: server.url },
    );
    return fetch(server.url, { method: 'POST', headers: request.headers, body: request.body, signal, duplex: 'half' } as RequestInit);
  };

  it('fires this.signal when the client closes the SSE stream', async () => {
    const fired = aborted();
    const controller = new AbortController();
    const response = await post('wait_for_cancel', controller.signal, 'c-1');
    const events = eventReader(response);
    expect((await events.next()).method).toBe('notifications/progress');
    controller.abort();
    await fired;
    expect(cancelled).toContain('streamed');
  });

  it('fires this.signal when the client drops a call that has streamed nothing yet', async () => {
    const fired = aborted();
    const controller = new AbortController();
    const pending = post('wait_quietly', controller.signal).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await pending;
    await fired;
    expect(cancelled).toContain('quiet');
  });

  it('closes a listen stream when the client does, and keeps serving others', async () => {
    const controller = new AbortController();
    const request = mcpRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }, { url: server.url });
    const response = await fetch(server.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: controller.signal,
      duplex: 'half',
    } as RequestInit);
    expect((await eventReader(response).next()).method).toBe('notifications/subscriptions/acknowledged');
    controller.abort();
    server.changes.toolsListChanged();
    const again = await fetch(server.url, {
      method: 'POST',
      headers: mcpRequest('tools/list', {}, { url: server.url }).headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: withMeta({}) }),
    });
    expect((await again.json()).result.tools.length).toBeGreaterThan(0);
  });
});
