// Tasks on 2026-07-28 (io.modelcontextprotocol/tasks) driven by the official v2 client, which has no tasks API: its
// raw request() sends tasks/* with the 2026-07-28 envelope and headers (Mcp-Name = taskId included). Its codec refuses
// a tools/call answered with `resultType: "task"`, so the call that creates a task is a plain fetch, as the same caller.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { App, type FrontMcpConfigInput, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { bearer } from '../helpers/bearer';
import { mcpRequest, meta, read } from '../helpers/requests';

const TASKS = 'io.modelcontextprotocol/tasks';
const SECRET = 'v2-tasks-test-secret-of-enough-length';
const answers = { type: 'object' as const, properties: { name: { type: 'string' }, confirm: { type: 'boolean' } } };

@Tool({ name: 'two_questions', inputSchema: {}, execution: { taskSupport: 'required' } })
class TwoQuestions extends ToolContext {
  async execute() {
    await this.startTask();
    // Keys a hostile client would aim at: they are question keys like any other.
    const [a, b] = await Promise.all([
      this.elicit('Your name?', answers, { key: 'constructor' }),
      this.elicit('Go ahead?', answers, { key: 'toString' }),
    ]);
    return `name=${String(a.content?.name)} confirm=${String(b.content?.confirm)}`;
  }
}

/** What the tool's signal said when it fired, per run. */
const stopped: string[] = [];

@Tool({ name: 'wait_for_cancel', inputSchema: {}, execution: { taskSupport: 'optional' } })
class WaitForCancel extends ToolContext {
  async execute() {
    if (!(await this.startTask())) return 'ran as an ordinary call';
    this.progress(1, 2, 'waiting for a cancel');
    const signal = this.signal;
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    stopped.push((signal.reason as Error).message);
    return 'stopped';
  }
}

@App({ id: 'tasks', tools: [TwoQuestions, WaitForCancel] })
class TasksApp {}

const config: FrontMcpConfigInput = {
  info: { name: 'v2-tasks', version: '1.0.0' },
  apps: [TasksApp],
  auth: { secret: SECRET },
  elicitation: { enabled: true },
  logger: { debug() {}, info() {}, warn() {}, error() {} },
};

let server: RunningServer;
const clients: Client[] = [];
beforeAll(async () => {
  server = await serve(config, { port: 0 });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

const DECLARING = { elicitation: {}, extensions: { [TASKS]: {} } };

async function connect(sub: string, declare = true): Promise<Client> {
  const client = new Client(
    { name: 'v2-tasks', version: '1.0.0' },
    {
      capabilities: declare ? DECLARING : { elicitation: {} },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  const headers = { authorization: await bearer(sub, SECRET) };
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  clients.push(client);
  callers.set(client, sub);
  return client;
}
const callers = new Map<Client, string>();

type Wire = Record<string, any>;
const anything = z.looseObject({});
const send = (client: Client, method: string, params: Record<string, unknown>): Promise<Wire> =>
  client.request({ method, params } as never, anything) as Promise<Wire>;
/** The error a request failed with, as the client threw it. */
const failure = (promise: Promise<unknown>): Promise<Wire> =>
  promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (error: Wire) => error,
  );

async function startTask(client: Client, name: string): Promise<string> {
  const authorization = await bearer(callers.get(client)!, SECRET);
  const request = mcpRequest(
    'tools/call',
    { name, arguments: {}, _meta: meta(DECLARING) },
    { url: server.url, headers: { authorization } },
  );
  const { body } = await read(await fetch(request));
  const created = body.result;
  expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 86_400_000, pollIntervalMs: 1000 });
  expect(created).not.toHaveProperty('requestState');
  return created.taskId as string;
}

const get = (client: Client, taskId: string) => send(client, 'tasks/get', { taskId });

describe('tasks through the official v2 client', () => {
  it('a tool asking two questions at once: both under inputRequests, answered one by one with tasks/update', async () => {
    const client = await connect('alice');
    const taskId = await startTask(client, 'two_questions');
    const asked = await vi.waitFor(async () => {
      const task = await get(client, taskId);
      expect(task.status).toBe('input_required');
      return task;
    });
    expect(Object.keys(asked.inputRequests).sort()).toEqual(['constructor', 'toString']);
    expect(asked.inputRequests.constructor).toMatchObject({ method: 'elicitation/create', params: { message: 'Your name?' } });

    const ack = await send(client, 'tasks/update', {
      taskId,
      inputResponses: { constructor: { action: 'accept', content: { name: 'Ada' } } },
    });
    // An empty acknowledgement (the client keeps `resultType` to itself): no task fields.
    expect(Object.keys(ack)).toEqual(['_meta']);
    const partial = await get(client, taskId);
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests)).toEqual(['toString']);

    await send(client, 'tasks/update', { taskId, inputResponses: { toString: { action: 'accept', content: { confirm: true } } } });
    const done = await vi.waitFor(async () => {
      const task = await get(client, taskId);
      expect(task.status).toBe('completed');
      return task;
    });
    expect(done.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'name=Ada confirm=true' }] });
  });

  it('tasks/cancel fires the running tool’s signal, and the task stays cancelled', async () => {
    const client = await connect('alice');
    const taskId = await startTask(client, 'wait_for_cancel');
    await vi.waitFor(async () => expect((await get(client, taskId)).statusMessage).toBe('waiting for a cancel'));
    expect(Object.keys(await send(client, 'tasks/cancel', { taskId }))).toEqual(['_meta']);
    await vi.waitFor(() => expect(stopped).toContain('The task was cancelled'));
    const task = await get(client, taskId);
    expect(task.status).toBe('cancelled');
    expect(task).not.toHaveProperty('result');
    // Cancelling an ended task is acknowledged again.
    expect(Object.keys(await send(client, 'tasks/cancel', { taskId }))).toEqual(['_meta']);
  });

  it('a request that does not declare the extension: -32021 with the capability it lacks, before any lookup', async () => {
    const client = await connect('alice', false);
    const lacking = { requiredCapabilities: { extensions: { [TASKS]: {} } } };
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const error = await failure(send(client, method, { taskId: 'tsk_AAAAAAAAAAAAAAAAAAAAAAAA', inputResponses: {} }));
      expect(error).toMatchObject({ code: -32021, data: lacking });
    }
    expect(await failure(send(client, 'tools/call', { name: 'two_questions', arguments: {} }))).toMatchObject({
      code: -32021,
      data: lacking,
    });
    // An optional tool runs as an ordinary call for it.
    expect(await client.callTool({ name: 'wait_for_cancel', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'ran as an ordinary call' }],
    });
  });

  it("another caller's task is answered exactly as an unknown one, and is left alone", async () => {
    const alice = await connect('alice');
    const mallory = await connect('mallory');
    const taskId = await startTask(alice, 'two_questions');
    await vi.waitFor(async () => expect((await get(alice, taskId)).status).toBe('input_required'));
    const unknown = await failure(get(mallory, 'tsk_AAAAAAAAAAAAAAAAAAAAAAAA'));
    expect(unknown).toMatchObject({ code: -32602 });
    const calls: [string, Record<string, unknown>][] = [
      ['tasks/get', { taskId }],
      ['tasks/update', { taskId, inputResponses: { constructor: { action: 'accept', content: { name: 'Mallory' } } } }],
      ['tasks/cancel', { taskId }],
    ];
    for (const [method, params] of calls) {
      const error = await failure(send(mallory, method, params));
      expect({ code: error.code, message: error.message }).toEqual({ code: unknown.code, message: unknown.message });
    }
    const task = await get(alice, taskId);
    expect(task.status).toBe('input_required');
    expect(Object.keys(task.inputRequests).sort()).toEqual(['constructor', 'toString']);
    await send(alice, 'tasks/cancel', { taskId });
  });

  it('hostile task ids are unknown, and hostile answer keys answer nothing that was not asked', async () => {
    const client = await connect('alice');
    const unknown = await failure(get(client, 'tsk_AAAAAAAAAAAAAAAAAAAAAAAA'));
    for (const taskId of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'tsk_../../etc/passwd']) {
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
        const error = await failure(send(client, method, { taskId, inputResponses: {} }));
        expect({ code: error.code, message: error.message }).toEqual({ code: -32602, message: unknown.message });
      }
    }
    const taskId = await startTask(client, 'two_questions');
    await vi.waitFor(async () => expect((await get(client, taskId)).status).toBe('input_required'));
    // Own keys `__proto__` and `hasOwnProperty`, never asked, and a value that is no answer for an open key.
    const hostile = JSON.parse(
      '{"__proto__":{"action":"accept","content":{"name":"x"}},"hasOwnProperty":{"action":"accept"},"toString":"yes"}',
    );
    expect(Object.keys(await send(client, 'tasks/update', { taskId, inputResponses: hostile }))).toEqual(['_meta']);
    const task = await get(client, taskId);
    expect(task.status).toBe('input_required');
    expect(Object.keys(task.inputRequests).sort()).toEqual(['constructor', 'toString']);
    await send(client, 'tasks/cancel', { taskId });
  });
});
