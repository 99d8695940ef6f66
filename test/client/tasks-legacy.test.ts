// Parley's client following a 2025-11-25 task: params.task where the server and the tool allow it, tasks/get while it
// works, then tasks/result, whose stream carries the task's question. Against a scripted server that serves that era's
// wire: Parley's own server does not serve 2025-11-25 tasks yet (issue #37), so this stands in for it.
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient, type ClientOptions } from 'parley-mcp/client';

const sse = (...messages: unknown[]) => messages.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join('');

/** A 2025-11-25 server with one tool that may run as a task, its task asking one question on the tasks/result stream. */
function scriptedLegacyServer() {
  const now = new Date(0).toISOString();
  const task = { taskId: 't1', status: 'working', createdAt: now, lastUpdatedAt: now, ttl: 60_000, pollInterval: 1 };
  const wire: { method?: string; params?: any; id?: unknown; result?: any }[] = [];
  let answered: (result: unknown) => void = () => {};
  const answer = new Promise<any>((resolve) => (answered = resolve));
  const json = (id: unknown, result: unknown, headers: Record<string, string> = {}) =>
    Response.json({ jsonrpc: '2.0', id, result }, { headers });
  const fetch = async (request: Request): Promise<Response> => {
    if (request.method === 'GET') return new Response(null, { status: 405 });
    if (request.method === 'DELETE') return new Response(null, { status: 200 });
    const body = await request.json();
    wire.push(body);
    if (body.method === undefined) {
      if (body.id === 'srv-1') answered(body.result);
      return new Response(null, { status: 202 });
    }
    if (body.id === undefined) return new Response(null, { status: 202 }); // notifications
    switch (body.method) {
      case 'initialize':
        return json(
          body.id,
          {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } },
            serverInfo: { name: 's', version: '1' },
          },
          { 'mcp-session-id': 'session-1' },
        );
      case 'tools/list':
        return json(body.id, { tools: [{ name: 'job', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } }] });
      case 'tools/call':
        return json(body.id, body.params.task ? { task } : { content: [{ type: 'text', text: 'at once' }] });
      case 'tasks/get':
        // Working for two polls, then waiting for the person.
        if (wire.filter((w) => w.method === 'tasks/get').length > 2) task.status = 'input_required';
        return json(body.id, task);
      case 'tasks/cancel':
        task.status = 'cancelled';
        return json(body.id, task);
      case 'tasks/result': {
        const question = {
          jsonrpc: '2.0',
          id: 'srv-1',
          method: 'elicitation/create',
          params: {
            message: 'Go?',
            requestedSchema: { type: 'object', properties: {} },
            _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't1' } },
          },
        };
        const stream = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(new TextEncoder().encode(sse(question)));
            const given = await answer;
            task.status = 'completed';
            controller.enqueue(
              new TextEncoder().encode(
                sse({ jsonrpc: '2.0', id: body.id, result: { content: [{ type: 'text', text: JSON.stringify(given) }] } }),
              ),
            );
            controller.close();
          },
        });
        return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
      }
    }
    return Response.json({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } });
  };
  return { task, wire, fetch, of: (m: string) => wire.filter((w) => w.method === m) };
}

let open: McpClient[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
});
function clientOf(server: ReturnType<typeof scriptedLegacyServer>, options: Partial<ClientOptions> = {}) {
  const client = new McpClient({
    url: 'http://localhost/mcp',
    fetch: server.fetch,
    protocolVersion: '2025-11-25',
    tasks: { minPollMs: 1, maxPollMs: 5 },
    ...options,
  });
  open.push(client);
  return client;
}

describe('tasks on 2025-11-25', () => {
  it('asks for a task, polls it, and answers its question on the tasks/result stream', async () => {
    const server = scriptedLegacyServer();
    const client = clientOf(server);
    client.onElicitation((params) => ({ action: 'accept', content: { said: params.message } }));
    await client.listTools();
    const statuses: string[] = [];
    const result = await client.callTool({ name: 'job' }, { onTaskStatus: (t) => statuses.push(t.status) });
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ action: 'accept', content: { said: 'Go?' } }) }]);
    expect(server.of('tools/call')[0]!.params.task).toEqual({});
    expect(server.of('tasks/get').length).toBeGreaterThanOrEqual(3);
    expect(server.of('tasks/result').map((w) => w.params)).toEqual([{ taskId: 't1' }]);
    expect(statuses).toEqual(['working', 'input_required']);
  });

  it('asks for no task with tasks off, or for a tool tools/list did not offer as one', async () => {
    const server = scriptedLegacyServer();
    await clientOf(server, { tasks: false }).listTools();
    expect((await open[0]!.callTool({ name: 'job' })).content).toEqual([{ type: 'text', text: 'at once' }]);
    expect(await clientOf(server).callTool({ name: 'job' })).toMatchObject({ content: [{ text: 'at once' }] }); // not listed yet
    await open[1]!.listTools();
    expect(await open[1]!.startTool({ name: 'job' })).toHaveProperty('task.taskId', 't1'); // listed now
    expect(server.of('tools/call').map((w) => w.params.task)).toEqual([undefined, undefined, {}]);
  });

  it("sends tasks/cancel when the caller's signal aborts", async () => {
    const server = scriptedLegacyServer();
    const client = clientOf(server);
    await client.listTools();
    const call = new AbortController();
    const pending = client.callTool({ name: 'job' }, { signal: call.signal, onTaskStatus: () => call.abort(new Error('the user left')) });
    await expect(pending).rejects.toThrow('the user left');
    expect(server.of('tasks/cancel').map((w) => w.params)).toEqual([{ taskId: 't1' }]);
  });

  it('startTool hands back the task, read as on 2026-07-28 (ttlMs, pollIntervalMs)', async () => {
    const server = scriptedLegacyServer();
    const client = clientOf(server);
    await client.listTools();
    const started = await client.startTool({ name: 'job' });
    expect(started).toEqual({ task: expect.objectContaining({ taskId: 't1', status: 'working', ttlMs: 60_000, pollIntervalMs: 1 }) });
    expect(server.of('tasks/get')).toEqual([]);
  });
});
