// A 2025-11-25 task of an anonymous session, with the official v1 client (1.32): under `elicitation.unanswered` (the
// server's, or the call's own on a server that sets none) its question, left unanswered on the tasks/result stream,
// moves to the session's inbox; the inbox's answer completes the task, and the client's answer after it is not used.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, LoopbackTokenAuth, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/inbox/server';

@Tool({ name: 'ask_name', inputSchema: {}, execution: { taskSupport: 'required' } })
class AskName extends ToolContext {
  async execute() {
    const answer = await this.elicit('Your name?', z.object({ name: z.string() }));
    return `hello ${String(answer.content?.name)}`;
  }
}

/** The same question with its own policy, for a server that sets none. */
@Tool({ name: 'ask_name_here', inputSchema: {}, execution: { taskSupport: 'required' } })
class AskNameHere extends ToolContext {
  async execute() {
    const answer = await this.elicit('Your name?', z.object({ name: z.string() }), { unanswered: { afterMs: 100, then: 'inbox' } });
    return `hello ${String(answer.content?.name)}`;
  }
}

@App({ id: 'legacy-task', tools: [AskName, AskNameHere] })
class LegacyTaskApp {}

const SERVERS = {
  /** elicitation.unanswered on the server. */
  policy: `task-legacy-${process.pid}`,
  /** No server policy: only a call's own `unanswered` moves its question. */
  plain: `task-legacy-plain-${process.pid}`,
};
const running = new Map<string, RunningServer>();
beforeAll(async () => {
  for (const [which, name] of Object.entries(SERVERS)) {
    const unanswered = which === 'policy' ? { unanswered: { afterMs: 100, then: 'inbox' as const } } : {};
    const server = await serve(
      {
        ...config,
        info: { name, version: '1' },
        apps: [LegacyTaskApp],
        elicitation: { enabled: true, persistent: { storage: { type: 'memory' } }, ...unanswered },
        tasks: { pollIntervalMs: 50 },
        logger: { debug() {}, info() {}, warn() {}, error() {} },
      },
      { port: 0 },
    );
    running.set(name, server);
  }
});
afterAll(() => Promise.all([...running.values()].map((server) => server.close())));

async function signIn(origin: string, server: string, subject: string): Promise<string> {
  const { code } = await LoopbackTokenAuth.createCode({ subject, server });
  const response = await fetch(`${origin}/_frontmcp/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  expect(response.status).toBe(204);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

const questions = async (origin: string, cookie: string): Promise<any[]> =>
  ((await (await fetch(`${origin}/_frontmcp/questions`, { headers: { cookie } })).json()) as any).questions;

describe("a 2025-11-25 session's task under elicitation.unanswered", () => {
  it.each([
    ["the server's elicitation.unanswered", SERVERS.policy, 'ask_name'],
    ["the call's own unanswered, on a server that sets none", SERVERS.plain, 'ask_name_here'],
  ])(
    'moves the question the client leaves unanswered to the session’s inbox, whose answer completes the task once: %s',
    async (_, name, tool) => {
      const server = running.get(name)!;
      const origin = new URL(server.url).origin;
      let answerLate: (answer: unknown) => void = () => {};
      const client = new Client({ name: 'task-legacy', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      // The client shows the form and the person does not answer it there (until after the inbox did).
      client.setRequestHandler(ElicitRequestSchema, () => new Promise((resolve) => (answerLate = resolve as typeof answerLate)));
      const transport = new StreamableHTTPClientTransport(new URL(server.url));
      await client.connect(transport);
      try {
        const stream = client.experimental.tasks.callToolStream({ name: tool, arguments: {} }, CallToolResultSchema, { task: {} });
        const seen: any[] = [];
        const drained = (async () => {
          for await (const message of stream) seen.push(message);
        })();
        const cookie = await signIn(origin, name, `session:${transport.sessionId}`);
        let question: any;
        for (let i = 0; i < 300 && !question; i++) {
          question = (await questions(origin, cookie)).find((q) => q.message === 'Your name?');
          if (!question) await new Promise((r) => setTimeout(r, 20));
        }
        expect(question).toMatchObject({ from: { tool, reason: 'task' } });
        // Another session's person sees none of it.
        expect(await questions(origin, await signIn(origin, name, 'session:another-session'))).toEqual([]);
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
        expect(await questions(origin, cookie)).toEqual([]);
      } finally {
        await client.close();
      }
    },
  );
});
