// notifications/tasks/status (2025-11-25) with the official v1 client: each change of a session's task reaches that
// session's GET stream as the bare Task, and no other session's.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema, TaskStatusNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { App, Tool, ToolContext } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';

@Tool({ name: 'ask_name', inputSchema: {}, execution: { taskSupport: 'optional' } })
class AskName extends ToolContext {
  async execute() {
    await this.startTask();
    this.progress(1, 2, 'looking up the ledger');
    const answer = await this.elicit('Your name?', { type: 'object', properties: { name: { type: 'string' } } });
    return `hello ${String(answer.content?.name)}`;
  }
}

@App({ id: 'status', tools: [AskName] })
class StatusApp {}

let server: RunningServer;
beforeAll(async () => {
  server = await serve(
    {
      info: { name: 'legacy-task-status', version: '1.0.0' },
      apps: [StatusApp],
      elicitation: { enabled: true },
      tasks: { pollIntervalMs: 50 },
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    },
    { port: 0 },
  );
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
