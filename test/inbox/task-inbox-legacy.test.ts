// A 2025-11-25 task of an anonymous session, with the official v1 client (1.32): under `elicitation.unanswered` its
// question, left unanswered on the tasks/result stream, moves to the session's inbox; the inbox's answer completes the
// task, and the client's answer that comes after it is not used.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, LoopbackTokenAuth, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/inbox/server';

const NAME = `task-legacy-${process.pid}`;

@Tool({ name: 'ask_name', inputSchema: {}, execution: { taskSupport: 'required' } })
class AskName extends ToolContext {
  async execute() {
    const answer = await this.elicit('Your name?', z.object({ name: z.string() }));
    return `hello ${String(answer.content?.name)}`;
  }
}

@App({ id: 'legacy-task', tools: [AskName] })
class LegacyTaskApp {}

let server: RunningServer;
let origin: string;
beforeAll(async () => {
  server = await serve(
    {
      ...config,
      info: { name: NAME, version: '1' },
      apps: [LegacyTaskApp],
      elicitation: { enabled: true, persistent: { storage: { type: 'memory' } }, unanswered: { afterMs: 100, then: 'inbox' } },
      tasks: { pollIntervalMs: 50 },
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    },
    { port: 0 },
  );
  origin = new URL(server.url).origin;
});
afterAll(() => server?.close());

async function signIn(subject: string): Promise<string> {
  const { code } = await LoopbackTokenAuth.createCode({ subject, server: NAME });
  const response = await fetch(`${origin}/_frontmcp/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  expect(response.status).toBe(204);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

const questions = async (cookie: string): Promise<any[]> =>
  ((await (await fetch(`${origin}/_frontmcp/questions`, { headers: { cookie } })).json()) as any).questions;

describe("a 2025-11-25 session's task under elicitation.unanswered", () => {
  it('moves the question the client leaves unanswered to the session’s inbox, whose answer completes the task once', async () => {
    let answerLate: (answer: unknown) => void = () => {};
    const client = new Client({ name: 'task-legacy', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    // The client shows the form and the person does not answer it there (until after the inbox did).
    client.setRequestHandler(ElicitRequestSchema, () => new Promise((resolve) => (answerLate = resolve as typeof answerLate)));
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
    try {
      const stream = client.experimental.tasks.callToolStream({ name: 'ask_name', arguments: {} }, CallToolResultSchema, { task: {} });
      const seen: any[] = [];
      const drained = (async () => {
        for await (const message of stream) seen.push(message);
      })();
      const cookie = await signIn(`session:${transport.sessionId}`);
      let question: any;
      for (let i = 0; i < 300 && !question; i++) {
        question = (await questions(cookie)).find((q) => q.message === 'Your name?');
        if (!question) await new Promise((r) => setTimeout(r, 20));
      }
      expect(question).toMatchObject({ from: { tool: 'ask_name', reason: 'task' } });
      // Another session's person sees none of it.
      expect(await questions(await signIn('session:another-session'))).toEqual([]);
      const answered = await fetch(`${origin}/_frontmcp/questions/${question.id}/answer`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'accept', content: { name: 'Ada from the inbox' } }),
      });
      expect(await answered.json()).toMatchObject({ status: 'answered', delivered: 'task' });
      answerLate({ action: 'accept', content: { name: 'the client, too late' } });
      await drained;
      const result = seen.find((m) => m.type === 'result')?.result;
      expect(result.content).toEqual([{ type: 'text', text: 'hello Ada from the inbox' }]);
      const taskId = seen.find((m) => m.type === 'taskCreated').task.taskId as string;
      expect((await client.experimental.tasks.getTask(taskId)).status).toBe('completed');
      expect(await questions(cookie)).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
