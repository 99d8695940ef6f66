// 2025-11-25's experimental core tasks driven by the official v1 client (1.32), whose experimental task API sends
// tools/call with params.task, polls tasks/get, and answers the task's questions on the tasks/result stream.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { App, type FrontMcpConfigInput, Tool, ToolContext } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';

const RELATED = 'io.modelcontextprotocol/related-task';
const answers = { type: 'object' as const, properties: { name: { type: 'string' } } };

@Tool({ name: 'ask_name', inputSchema: {}, execution: { taskSupport: 'optional' } })
class AskName extends ToolContext {
  async execute() {
    await this.startTask();
    const answer = await this.elicit('Your name?', answers);
    return `hello ${String(answer.content?.name)}`;
  }
}

@Tool({ name: 'wait_for_cancel', inputSchema: {}, execution: { taskSupport: 'required' } })
class WaitForCancel extends ToolContext {
  async execute() {
    const signal = this.signal;
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    return 'stopped';
  }
}

@Tool({ name: 'fails', inputSchema: {}, execution: { taskSupport: 'optional' } })
class Fails extends ToolContext {
  async execute() {
    await this.startTask();
    throw new Error('the ledger is locked');
  }
}

@Tool({ name: 'plain', inputSchema: {} })
class Plain extends ToolContext {
  async execute() {
    return 'plain';
  }
}

@App({ id: 'tasks', tools: [AskName, WaitForCancel, Fails, Plain] })
class TasksApp {}

const config: FrontMcpConfigInput = {
  info: { name: 'v1-tasks', version: '1.0.0' },
  apps: [TasksApp],
  elicitation: { enabled: true },
  tasks: { pollIntervalMs: 50 },
  logger: { debug() {}, info() {}, warn() {}, error() {} },
};

let server: RunningServer;
beforeAll(async () => {
  server = await serve(config, { port: 0 });
});
afterAll(() => server.close());

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(elicit: (params: any) => unknown = () => ({ action: 'cancel' })): Promise<Client> {
  const client = new Client({ name: 'v1-tasks', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request.params) as any);
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  clients.push(client);
  return client;
}

/** Every message the stream gave, in order. */
async function drain(stream: AsyncGenerator<any>): Promise<any[]> {
  const seen: any[] = [];
  for await (const message of stream) seen.push(message);
  return seen;
}

describe('2025-11-25 tasks with the official v1 client', () => {
  it('advertises tasks in initialize and taskSupport in tools/list', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
    expect(support).toEqual({ ask_name: 'optional', wait_for_cancel: 'required', fails: 'optional', plain: undefined });
  });

  it("runs a task whose tool elicits: the question comes on tasks/result's stream, the answer reaches the task", async () => {
    const asked: any[] = [];
    const client = await connect((params) => (asked.push(params), { action: 'accept', content: { name: 'Ada' } }));
    const seen = await drain(
      client.experimental.tasks.callToolStream({ name: 'ask_name', arguments: {} }, CallToolResultSchema, { task: { ttl: 60_000 } }),
    );
    const created = seen.find((m) => m.type === 'taskCreated');
    expect(created.task.status).toBe('working');
    const taskId = created.task.taskId as string;
    expect(asked).toHaveLength(1);
    expect(asked[0].message).toBe('Your name?');
    expect(asked[0]._meta[RELATED]).toEqual({ taskId });
    const result = seen.find((m) => m.type === 'result')?.result;
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    expect(result._meta[RELATED]).toEqual({ taskId });
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('completed');
  });

  it('lists the caller’s tasks, cancels a working one, and refuses to cancel it again', async () => {
    const client = await connect();
    const stream = client.experimental.tasks.callToolStream({ name: 'wait_for_cancel', arguments: {} }, CallToolResultSchema, {
      task: {},
    });
    const first = await stream.next();
    expect(first.value?.type).toBe('taskCreated');
    const taskId = (first.value as any).task.taskId as string;
    const other = await connect();
    expect((await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toEqual([taskId]);
    // Another session (anonymous callers are known by their session) sees none of it.
    expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);
    await expect(other.experimental.tasks.getTask(taskId)).rejects.toThrow(/Task not found/);
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe('cancelled');
    await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/already ended/);
    const rest = await drain(stream);
    expect(rest.at(-1)).toMatchObject({ type: 'error' });
    expect(String(rest.at(-1).error.message)).toMatch(/cancelled/);
  });

  it('ends a task whose tool throws as failed, and answers tasks/result with its error', async () => {
    const client = await connect();
    const seen = await drain(
      client.experimental.tasks.callToolStream({ name: 'fails', arguments: {} }, CallToolResultSchema, { task: {} }),
    );
    const taskId = seen.find((m) => m.type === 'taskCreated').task.taskId as string;
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('failed');
    expect(seen.at(-1).type).toBe('error');
  });

  it('refuses params.task on a tool that does not run as a task, and a required one called without it', async () => {
    const client = await connect();
    await expect(
      drain(client.experimental.tasks.callToolStream({ name: 'plain', arguments: {} }, CallToolResultSchema, { task: {} })),
    ).resolves.toEqual([expect.objectContaining({ type: 'error', error: expect.objectContaining({ code: -32601 }) })]);
    await expect(client.callTool({ name: 'wait_for_cancel', arguments: {} })).rejects.toThrow(/-32601/);
  });
});
