// 2025-11-25 tasks over stdio with the official v1 client: the task's question goes out as a line while tasks/result waits,
// and each change of the task as a notifications/tasks/status line.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, ElicitRequestSchema, TaskStatusNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';

let client: Client;
const asked: any[] = [];
const heard: any[] = [];

beforeAll(async () => {
  client = new Client({ name: 'v1-stdio-tasks', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return { action: 'accept', content: { name: 'Grace' } };
  });
  client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => void heard.push(notification.params));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=parley-source', '--import', 'tsx', 'test/fixtures/stdio-tasks-server.ts'],
      stderr: 'pipe',
    }),
  );
});
afterAll(() => client.close());

it('runs a task whose tool elicits over stdio, the question answered through the client’s handler', async () => {
  expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  const seen: any[] = [];
  for await (const message of client.experimental.tasks.callToolStream({ name: 'ask_name', arguments: {} }, CallToolResultSchema, {
    task: {},
  }))
    seen.push(message);
  const taskId = seen.find((m) => m.type === 'taskCreated')?.task.taskId;
  expect(asked.map((p) => [p.message, p._meta?.['io.modelcontextprotocol/related-task']])).toEqual([['Your name?', { taskId }]]);
  expect(seen.at(-1)).toMatchObject({ type: 'result', result: { content: [{ type: 'text', text: 'hello Grace' }] } });
  expect((await client.experimental.tasks.listTasks()).tasks.map((t) => [t.taskId, t.status])).toEqual([[taskId, 'completed']]);
  // Its changes went out as lines too: the bare Task, never its result.
  await vi.waitFor(() => expect(heard.at(-1)).toMatchObject({ taskId, status: 'completed', pollInterval: 50 }));
  expect(heard.map((task) => task.status)).toContain('input_required');
  for (const task of heard) expect(task).not.toHaveProperty('result');
});
