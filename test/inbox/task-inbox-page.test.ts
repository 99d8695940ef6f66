// A task's question answered by a person: in the inbox page in a real headless chromium (playwright-core), and with
// `parley inbox`, against a real Node listener; the task, polled with tasks/get, completes with what they gave: its
// work parked at the question, and the answer replayed it (execute() ran twice, its step once).
import { Readable } from 'node:stream';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, LoopbackTokenAuth, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/inbox/server';
import { runInbox } from '../../src/cli/inbox';
import { bearer } from '../helpers/bearer';
import { launchChromium } from '../helpers/chromium';
import { mcpRequest, meta } from '../helpers/requests';

const ISSUER = 'https://idp.example';
const SECRET = 'task-page-test-signing-secret';
const NAME = `task-page-${process.pid}`;
const declaring = meta({ elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } });

/** Per year: how many times execute() ran from the top, and how many times its step ran. */
const runs = new Map<number, number>();
const stepped = new Map<number, number>();

@Tool({ name: 'export_ledger', inputSchema: { year: z.number().int() }, execution: { taskSupport: 'required' } })
class ExportLedger extends ToolContext {
  async execute({ year }: { year: number }) {
    runs.set(year, (runs.get(year) ?? 0) + 1);
    await this.startTask();
    await this.step('count', () => void stepped.set(year, (stepped.get(year) ?? 0) + 1));
    const sure = await this.elicit(
      `Publish the ${year} ledger?`,
      z.object({ publish: z.boolean().describe('Publish it'), note: z.string().optional() }),
    );
    return `${year}: ${sure.status}, publish ${String(sure.content?.publish)}, ${String(sure.content?.note)}`;
  }
}

@App({ id: 'ledger', tools: [ExportLedger] })
class LedgerApp {}

let server: RunningServer;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  server = await serve(
    { ...config, info: { name: NAME, version: '1' }, apps: [LedgerApp], logger: quiet, auth: { secret: SECRET } },
    { port: 0 },
  );
  origin = new URL(server.url).origin;
  await fetch(`${origin}/_frontmcp/inbox`); // the server is built on its first request, and its people auth with it
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function rpc(method: string, params: Record<string, unknown>) {
  const taskId = params.taskId as string | undefined;
  const headers = { authorization: await bearer('dana', SECRET, ISSUER), ...(taskId ? { 'mcp-name': taskId } : {}) };
  const request = mcpRequest(method, { _meta: declaring, ...params }, { url: server.url, headers });
  return ((await (await fetch(request)).json()) as any).result;
}

/** Starts the task as dana, and waits until it asks. */
async function startTask(year: number): Promise<string> {
  const { taskId } = await rpc('tools/call', { name: 'export_ledger', arguments: { year } });
  for (let i = 0; i < 500 && (await rpc('tasks/get', { taskId })).status !== 'input_required'; i++)
    await new Promise((r) => setTimeout(r, 10));
  return taskId;
}

/** The task's end, polled as a client would. */
async function completed(taskId: string): Promise<string> {
  for (let i = 0; i < 500; i++) {
    const task = await rpc('tasks/get', { taskId });
    if (task.status === 'completed') return task.result.content[0].text;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the task did not complete');
}

const link = async () =>
  `${origin}/_frontmcp/inbox#code=${(await LoopbackTokenAuth.createCode({ subject: `principal:${ISSUER}#dana`, server: NAME })).code}`;

describe("a task's question answered by a person", () => {
  it('in the inbox page: it shows as a task waiting, and what the person submits completes the task', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(8000);
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && !m.location().url.endsWith('/favicon.ico') && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(await link());
    await page.locator('#live.on').waitFor();
    const taskId = await startTask(2025);
    const card = page.locator('article.question', { hasText: 'Publish the 2025 ledger?' });
    await card.waitFor(); // live, over the event stream
    expect(await card.locator('.from').textContent()).toBe('from export_ledger · a task waits for your answer: the first answer counts');
    await card.getByText('a task is waiting').waitFor();
    await card.getByLabel('publish').check();
    await card.getByLabel('note').fill('after the audit');
    await card.getByRole('button', { name: 'Submit' }).click();
    // The answer taken, the question leaves the view (the task has it) and goes in the log.
    await page.locator('#log li', { hasText: 'Publish the 2025 ledger? — accept, the task goes on with it' }).waitFor();
    expect(await card.count()).toBe(0);
    expect(await completed(taskId)).toBe('2025: accept, publish true, after the audit');
    expect([runs.get(2025), stepped.get(2025)]).toEqual([2, 1]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('with parley inbox: it is listed, and --answer completes the task', async () => {
    const taskId = await startTask(2026);
    const output = { stdout: '' };
    const sink = { isTTY: false, write: (text: string) => ((output.stdout += text), true) } as unknown as NodeJS.WriteStream;
    const parley = async (args: string[]) => {
      output.stdout = '';
      const stdin = Readable.from([`${await link()}\n`]) as unknown as NodeJS.ReadStream;
      const code = await runInbox(['--url', origin, ...args], { stdin, stdout: sink, stderr: sink, env: {} });
      return { code, stdout: output.stdout };
    };
    const listing = await parley([]);
    expect(listing.code, listing.stdout).toBe(0);
    expect(listing.stdout).toContain('Publish the 2026 ledger?');
    expect(listing.stdout).toContain('a task is waiting');
    expect(listing.stdout).toContain('  from export_ledger · a task waits for this answer; the client may answer it too');
    const id = /\[([0-9a-f-]{36})\]/.exec(listing.stdout)![1]!;
    const answered = await parley(['--answer', id, '--content', '{"publish":false,"note":"not yet"}']);
    expect(answered).toMatchObject({ code: 0, stdout: expect.stringContaining('the task goes on with it') });
    expect(await completed(taskId)).toBe('2026: accept, publish false, not yet');
    expect([runs.get(2026), stepped.get(2026)]).toEqual([2, 1]);
    expect((await parley([])).stdout).not.toContain('Publish the 2026 ledger?');
  });
});
