// parley dev in a pseudo-terminal with persistent questions: the inbox link reaches the person's terminal, and a
// question moved to the inbox runs the user's `moved` hook and the dev log's line (#34).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { tempProject } from '../fixtures/dev-project';

const REPO = resolve(__dirname, '../..');

const MODULE = `import { App, FrontMcp, printQuestionInboxLink, Tool, ToolContext, z } from 'parley-mcp';

@Tool({ name: 'deploy', inputSchema: { version: z.string() } })
class Deploy extends ToolContext {
  async execute({ version }: { version: string }) {
    const answer = await this.elicit(\`Deploy \${version}?\`, z.object({ approve: z.boolean() }), { ttl: 1_500 });
    return { deployed: answer.status === 'accept' };
  }
}

@Tool({ name: 'inbox_link', inputSchema: {} })
class InboxLink extends ToolContext {
  async execute() {
    return printQuestionInboxLink(this);
  }
}

@App({ id: 'deploys', tools: [Deploy, InboxLink] })
class Deploys {}

@FrontMcp({
  info: { name: 'dev-inbox', version: '1.0.0' },
  apps: [Deploys],
  http: { auth: { people: 'loopback-token' } },
  elicitation: {
    enabled: true,
    persistent: { storage: { type: 'memory' } },
    unanswered: { afterMs: 200, then: 'inbox' },
    hooks: { moved: [(m) => console.error(\`user hook: \${m.tool} moved \${m.key} (\${m.reason})\`)] },
  },
})
export default class Server {}
`;

let dir: string;
let term: ChildProcessWithoutNullStreams;
let screen = '';
let url: string;
const waitFor = (text: RegExp) => vi.waitFor(() => expect(screen).toMatch(text), { timeout: 20_000, interval: 100 });

beforeAll(async () => {
  dir = tempProject(REPO, MODULE);
  const command = `exec ${process.execPath} ${join(REPO, 'bin/parley.js')} dev server.ts --port 0`;
  term = spawn('script', ['-qfec', command, '/dev/null'], { cwd: dir, env: { ...process.env, TERM: 'dumb' } });
  term.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  await waitFor(/Serving .*server\.ts at http:\/\/127\.0\.0\.1:\d+\/mcp/);
  url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(screen)![1]!;
}, 30_000);
afterAll(async () => {
  term.stdin.write('\x03');
  await vi.waitFor(() => expect(term.exitCode ?? term.signalCode).not.toBeNull(), { timeout: 10_000 }).catch(() => term.kill('SIGKILL'));
  rmSync(dir, { recursive: true, force: true });
});

/** The official v1 client, whose session is the subject its questions belong to; its form is never answered. */
async function client() {
  const c = new Client({ name: 'dev-inbox-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  c.setRequestHandler(ElicitRequestSchema, () => new Promise<never>(() => {}));
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

it('prints the inbox link on the terminal parley dev runs in', async () => {
  const c = await client();
  try {
    const result = await c.callTool({ name: 'inbox_link', arguments: {} });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    // A session id is a credential: the line says whose inbox it is without it.
    await waitFor(/Inbox for this session \(one use, until [^)]+\): http:\/\/127\.0\.0\.1:\d+\/_frontmcp\/inbox#code=/);
    const sessionId = (c.transport as StreamableHTTPClientTransport).sessionId!;
    expect(sessionId).toBeTruthy();
    expect(screen).not.toContain(sessionId);
  } finally {
    await c.close();
  }
}, 30_000);

it("runs the user's moved hook beside the dev log's line when a question moves to the inbox", async () => {
  const c = await client();
  try {
    await c.callTool({ name: 'deploy', arguments: { version: '1.2' } }).catch(() => {});
    await waitFor(/user hook: deploy moved elicitation-1 \(client-never-answered\)/);
    await waitFor(/deploy put elicitation-1 in the caller's inbox: the client never answered it/);
  } finally {
    await c.close();
  }
}, 30_000);
