// notifications/tasks/status (2025-11-25) with the official v1 client: each change of a session's task reaches that
// session's GET stream as the bare Task, and no other session's; and on raw HTTP across two instances sharing a real
// Redis, the GET stream on one instance hears the task created and run on the other.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema, TaskStatusNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { App, createFetchHandler, type FrontMcpConfigInput, Tool, ToolContext } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { LEGACY, legacyPost, openLegacySession, request, sseReader } from '../helpers/legacy';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { read } from '../helpers/requests';

@Tool({ name: 'ask_name', inputSchema: {}, execution: { taskSupport: 'optional' } })
class AskName extends ToolContext {
  async execute() {
    await this.startTask();
    this.progress(1, 2, 'looking up the ledger');
    const answer = await this.elicit('Your name?', { type: 'object', properties: { name: { type: 'string' } } });
    return `hello ${String(answer.content?.name)}`;
  }
}

/** Becomes a task, says where it is, and ends a moment later. */
@Tool({ name: 'short', inputSchema: {}, execution: { taskSupport: 'optional' } })
class Short extends ToolContext {
  async execute() {
    this.progress(1, 2, 'halfway');
    await new Promise((resolve) => setTimeout(resolve, 50));
    return 'done';
  }
}

@App({ id: 'status', tools: [AskName, Short] })
class StatusApp {}

const config = (extra: Partial<FrontMcpConfigInput> = {}): FrontMcpConfigInput => ({
  info: { name: 'legacy-task-status', version: '1.0.0' },
  apps: [StatusApp],
  elicitation: { enabled: true },
  tasks: { pollIntervalMs: 50 },
  logger: { debug() {}, info() {}, warn() {}, error() {} },
  ...extra,
});

let server: RunningServer;
beforeAll(async () => {
  server = await serve(config(), { port: 0 });
});
afterAll(() => server.close());

/** A v1 client whose GET stream's task notifications land in `heard`. */
async function connect(heard: unknown[]): Promise<Client> {
  const client = new Client({ name: 'v1-status', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
  client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void heard.push(n.params));
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  return client;
}

describe('notifications/tasks/status with the official v1 client', () => {
  it("sends the session's task at each change on its GET stream, and nothing to another session", async () => {
    const mine: any[] = [];
    const theirs: any[] = [];
    const [client, other] = [await connect(mine), await connect(theirs)];
    // A round trip each, so both GET streams are open before the task starts.
    await Promise.all([client.listTools(), other.listTools()]);
    const seen: any[] = [];
    for await (const message of client.experimental.tasks.callToolStream({ name: 'ask_name', arguments: {} }, CallToolResultSchema, {
      task: { ttl: 60_000 },
    }))
      seen.push(message);
    const taskId = seen.find((m) => m.type === 'taskCreated').task.taskId;
    expect(seen.at(-1).result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    await vi.waitFor(() => expect(mine.at(-1)?.status).toBe('completed'));
    for (const task of mine) {
      expect(task).toMatchObject({ taskId, ttl: expect.any(Number), pollInterval: 50 });
      expect(task).not.toHaveProperty('result');
    }
    expect(mine.map((t) => t.status)).toContain('input_required');
    expect(mine.find((t) => t.status === 'input_required').statusMessage).toBe('looking up the ledger');
    expect(theirs).toEqual([]);
    await Promise.all([client.close(), other.close()]);
  });
});

describe('notifications/tasks/status across two instances sharing a real Redis', () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it('sends the GET stream held by one instance the changes of a task created and run on the other', async () => {
    const [one, two] = [createFetchHandler(config({ redis: redis.url })), createFetchHandler(config({ redis: redis.url }))];
    const session = await openLegacySession(one);
    const get = await two(
      new Request('http://127.0.0.1/mcp', {
        headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': LEGACY },
      }),
    );
    expect(get.status).toBe(200);
    const events = sseReader(get);
    const created = await read(await one(legacyPost(request('tools/call', { name: 'short', arguments: {}, task: {} }), session)));
    const { taskId } = created.body.result.task;
    const heard: any[] = [];
    while (heard.at(-1)?.status !== 'completed') {
      const event = (await events.next())!;
      expect(event.data.method).toBe('notifications/tasks/status');
      heard.push(event.data.params);
    }
    expect(heard.map((t) => t.taskId)).toEqual(heard.map(() => taskId));
    expect(heard[0]).toMatchObject({ status: 'working', statusMessage: 'halfway' });
    expect(heard.at(-1)).not.toHaveProperty('result');
    await events.cancel();
    await Promise.all([one.close(), two.close()]);
  });
});
