// Parley's client following a 2026-07-28 task, against a scripted server that serves the extension's wire exactly: the
// cases a real server seldom shows on demand (a question shown on many polls, one withdrawn, a server's odd interval).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpWireError } from 'parley-mcp';
import { McpClient, McpClientError, type ClientOptions, type ElicitAnswer, type TaskState } from 'parley-mcp/client';

const EXT = 'io.modelcontextprotocol/tasks';
const ok = (id: unknown, result: unknown) => Response.json({ jsonrpc: '2.0', id, result });

/**
 * A server that answers tools/call with a task and serves tasks/get, tasks/update and tasks/cancel from one task the
 * test changes by hand (a scripted peer, not Parley: the real server's tests are in tasks-parley.test.ts).
 */
function scriptedServer() {
  const now = new Date(0).toISOString();
  const task: Omit<TaskState, 'taskId'> = { status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: 60_000, pollIntervalMs: 1 };
  const wire: { method: string; headers: Headers; params: any }[] = [];
  /** Runs on each request after it is recorded: the test moves the task along here. */
  let onRequest: (method: string, params: any) => void = () => {};
  const fetch = async (request: Request): Promise<Response> => {
    const body = await request.json();
    wire.push({ method: body.method, headers: request.headers, params: body.params });
    onRequest(body.method, body.params);
    const declared = Object.hasOwn(body.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions ?? {}, EXT);
    if (body.method === 'tools/call' || body.method === 'prompts/get')
      // prompts/get: a server that breaks the rule
      return ok(body.id, declared ? { resultType: 'task', taskId: 'tsk_1', ...task, inputRequests: undefined } : { content: [] });
    if (body.method === 'tasks/get') return ok(body.id, { resultType: 'complete', taskId: 'tsk_1', ...task });
    return ok(body.id, { resultType: 'complete' }); // tasks/update, tasks/cancel
  };
  return { task, wire, fetch, on: (f: typeof onRequest) => (onRequest = f), of: (m: string) => wire.filter((w) => w.method === m) };
}

let open: McpClient[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.map((c) => c.close()));
  open = [];
});
function clientOf(server: ReturnType<typeof scriptedServer>, options: Partial<ClientOptions> = {}) {
  const client = new McpClient({ url: 'http://localhost/mcp', fetch: server.fetch, tasks: { minPollMs: 1, maxPollMs: 5 }, ...options });
  open.push(client);
  return client;
}
const twoQuestions = {
  a: { method: 'elicitation/create', params: { message: 'First?', requestedSchema: { type: 'object', properties: {} } } },
  b: { method: 'elicitation/create', params: { message: 'Second?', requestedSchema: { type: 'object', properties: {} } } },
};

describe('declaring the extension', () => {
  it('puts it in each request _meta only when tasks are on', async () => {
    const off = scriptedServer();
    await clientOf(off, { tasks: undefined }).callTool({ name: 'job' });
    expect(off.wire[0]!.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({ elicitation: { form: {} } });
    const on = scriptedServer();
    on.on((method) => method === 'tasks/get' && Object.assign(on.task, { status: 'completed', result: { content: [] } }));
    await clientOf(on).callTool({ name: 'job' });
    for (const sent of on.wire)
      expect(sent.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({
        elicitation: { form: {} },
        extensions: { [EXT]: {} },
      });
  });
});

describe('following a task', () => {
  it('answers each question once though polls show it again, with Mcp-Name on every task request', async () => {
    const server = scriptedServer();
    Object.assign(server.task, { status: 'input_required', inputRequests: { ...twoQuestions } });
    const answered = new Set<string>();
    server.on((method, params) => {
      if (method === 'tasks/update') for (const key of Object.keys(params.inputResponses)) answered.add(key);
      // The server keeps showing a key for a few polls after its answer (the ack is eventually consistent).
      if (method === 'tasks/get' && answered.size === 2 && server.of('tasks/get').length > 6)
        Object.assign(server.task, {
          status: 'completed',
          inputRequests: undefined,
          result: { content: [{ type: 'text', text: 'done' }] },
        });
    });
    const client = clientOf(server);
    const asked: string[] = [];
    client.onElicitation((params) => {
      asked.push(params.message);
      return { action: 'accept', content: { n: asked.length } };
    });
    const result = await client.callTool({ name: 'job' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(asked).toEqual(['First?', 'Second?']);
    expect(server.of('tasks/update').map((u) => u.params.inputResponses)).toEqual([
      { a: { action: 'accept', content: { n: 1 } } },
      { b: { action: 'accept', content: { n: 2 } } },
    ]);
    for (const sent of server.wire.filter((w) => w.method.startsWith('tasks/'))) {
      expect(sent.headers.get('mcp-name')).toBe('tsk_1');
      expect(sent.headers.get('mcp-method')).toBe(sent.method);
      expect(sent.params.taskId).toBe('tsk_1');
    }
  });

  it('answers questions whose keys are names of Object.prototype under those keys', async () => {
    const server = scriptedServer();
    const ask = (message: string) => ({ method: 'elicitation/create', params: { message } });
    Object.assign(server.task, { status: 'input_required', inputRequests: { constructor: ask('One?'), toString: ask('Two?') } });
    server.on(
      (method) =>
        method === 'tasks/get' &&
        server.of('tasks/update').length === 2 &&
        Object.assign(server.task, { status: 'completed', result: { content: [] } }),
    );
    const client = clientOf(server);
    client.onElicitation((params) => ({ action: 'accept', content: { said: params.message } }));
    await client.callTool({ name: 'job' });
    const expected: Record<string, unknown>[] = [
      { constructor: { action: 'accept', content: { said: 'One?' } } },
      { toString: { action: 'accept', content: { said: 'Two?' } } },
    ];
    expect(server.of('tasks/update').map((u) => u.params.inputResponses)).toEqual(expected);
  });

  it('closes the dialog of a question the server withdraws, and sends no answer for it', async () => {
    const server = scriptedServer();
    Object.assign(server.task, { status: 'input_required', inputRequests: { a: twoQuestions.a } });
    let signal: AbortSignal | undefined;
    server.on((method) => {
      // Answered from elsewhere (the inbox): the key leaves, then the work ends.
      if (method === 'tasks/get' && signal) Object.assign(server.task, { status: 'working', inputRequests: undefined });
      if (method === 'tasks/get' && signal?.aborted) Object.assign(server.task, { status: 'completed', result: { content: [] } });
    });
    const client = clientOf(server);
    client.onElicitation((_params, context) => {
      signal = context.signal;
      return new Promise<ElicitAnswer>((resolve) => context.signal.addEventListener('abort', () => resolve({ action: 'cancel' })));
    });
    await client.callTool({ name: 'job' });
    expect(signal?.aborted).toBe(true);
    expect(server.of('tasks/update')).toEqual([]);
  });

  it('tells the person what the task is doing: onTaskStatus on each new status or statusMessage, not on each poll', async () => {
    const server = scriptedServer();
    const messages = ['Queued', 'Queued', 'Exported 10 rows', 'Exported 10 rows', 'Exported 20 rows'];
    server.on((method) => {
      if (method !== 'tasks/get') return;
      const next = messages.shift();
      if (next) server.task.statusMessage = next;
      else Object.assign(server.task, { status: 'completed', statusMessage: undefined, result: { content: [] } });
    });
    const seen: [string, string | undefined][] = [];
    await clientOf(server).callTool({ name: 'job' }, { onTaskStatus: (t) => seen.push([t.status, t.statusMessage]) });
    expect(seen).toEqual([
      ['working', undefined],
      ['working', 'Queued'],
      ['working', 'Exported 10 rows'],
      ['working', 'Exported 20 rows'],
      ['completed', undefined],
    ]);
  });
});

describe('how a task ends', () => {
  it('throws the error of a failed task as McpWireError', async () => {
    const server = scriptedServer();
    server.on(() =>
      Object.assign(server.task, { status: 'failed', error: { code: -32603, message: 'warehouse reset', data: { retry: true } } }),
    );
    const error = await clientOf(server)
      .callTool({ name: 'job' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpWireError);
    expect(error).toMatchObject({ code: -32603, message: 'warehouse reset', data: { retry: true } });
    expect(server.of('tasks/cancel')).toEqual([]);
  });

  it('throws an AbortError for a task cancelled on the server', async () => {
    const server = scriptedServer();
    server.on(() => Object.assign(server.task, { status: 'cancelled', statusMessage: 'cancelled from the inbox' }));
    const error = await clientOf(server)
      .callTool({ name: 'job' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError', message: 'Task tsk_1 was cancelled: cancelled from the inbox' });
    expect(server.of('tasks/cancel')).toEqual([]);
  });

  it("sends tasks/cancel when the caller's signal aborts, and throws its reason", async () => {
    const server = scriptedServer();
    const call = new AbortController();
    server.on((method) => method === 'tasks/get' && server.of('tasks/get').length === 3 && call.abort(new Error('the user left')));
    await expect(clientOf(server).callTool({ name: 'job' }, { signal: call.signal })).rejects.toThrow('the user left');
    const [cancel, ...more] = server.of('tasks/cancel');
    expect(more).toEqual([]);
    expect(cancel!.params.taskId).toBe('tsk_1');
    expect(cancel!.headers.get('mcp-name')).toBe('tsk_1');
  });

  it('refuses a task state it cannot read, and cancels the task', async () => {
    const server = scriptedServer();
    server.on((method) => method === 'tasks/get' && Object.assign(server.task, { status: 'paused' }));
    await expect(clientOf(server).callTool({ name: 'job' })).rejects.toThrow(
      new McpClientError('Task tsk_1 has an unknown status "paused"'),
    );
    expect(server.of('tasks/cancel')).toHaveLength(1);
  });

  it('refuses a question it did not declare, and cancels the task', async () => {
    const server = scriptedServer();
    Object.assign(server.task, { status: 'input_required', inputRequests: { s: { method: 'sampling/createMessage', params: {} } } });
    await expect(clientOf(server).callTool({ name: 'job' })).rejects.toThrow(/asked for sampling\/createMessage/);
    expect(server.of('tasks/cancel')).toHaveLength(1);
  });

  it('refuses a task as the answer to anything but tools/call', async () => {
    const server = scriptedServer();
    await expect(clientOf(server).request('prompts/get', { name: 'p' })).rejects.toThrow(/answered prompts\/get with a task/);
  });
});

describe('the pace of polls', () => {
  /** How many tasks/get the client sends while fake time moves by `ms`. */
  async function pollsDuring(server: ReturnType<typeof scriptedServer>, ms: number): Promise<number> {
    const before = server.of('tasks/get').length;
    await vi.advanceTimersByTimeAsync(ms);
    return server.of('tasks/get').length - before;
  }

  it("waits the server's pollIntervalMs, kept between minPollMs and maxPollMs", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const server = scriptedServer();
    const client = clientOf(server, { tasks: { minPollMs: 500, maxPollMs: 60_000 } });
    server.task.pollIntervalMs = 2000;
    const call = new AbortController();
    const pending = client.callTool({ name: 'job' }, { signal: call.signal }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(0); // the tools/call itself
    expect(server.of('tools/call')).toHaveLength(1);
    expect(await pollsDuring(server, 1999)).toBe(0);
    expect(await pollsDuring(server, 1)).toBe(1);
    expect(await pollsDuring(server, 2000 * 3)).toBe(3);
    server.task.pollIntervalMs = 0; // the floor
    expect(await pollsDuring(server, 2000)).toBe(1); // the wait already begun at the old pace
    expect(await pollsDuring(server, 499)).toBe(0);
    expect(await pollsDuring(server, 1)).toBe(1);
    server.task.pollIntervalMs = 3_600_000; // the cap
    expect(await pollsDuring(server, 500)).toBe(1);
    expect(await pollsDuring(server, 59_999)).toBe(0);
    expect(await pollsDuring(server, 1)).toBe(1);
    call.abort();
    await pending;
  });
});
