// A Worker project as `npx parley-mcp init --worker` makes it from the installed tarball, used as its README says: it
// installs, typechecks and its tests pass; `npm run build` (wrangler deploy --dry-run) builds it with its Durable
// Objects bound, under the budget; `npm run dev` serves it in wrangler dev (workerd), where the official clients
// complete a 2026-07-28 round, an older client's question and a 2025-11-25 task, kept in its Durable Objects; and its
// inbox: the person signs in with the link `inbox_link` prints on wrangler dev's log and answers `approve`'s persistent
// question there, which the waiting call gets.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOX_WORKER_BUDGET_BYTES } from '../helpers/bundle';
import { checkClients, CLIENT_PACKAGES, dispose, freePort, npmInstall, packOnce, project, sh, startApp, type CheckCall } from './helpers';

const GREET: CheckCall = { name: 'greet', arguments: {}, answer: { name: 'Ada' } };
const ROUND = { asked: ['What is your name?'], result: { greeting: 'Hello, Ada!' } };
const wranglerEnv = { WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', CI: 'true' };

let tarball: string;
let maker: string; // the tarball and the clients installed: it runs `npx parley-mcp init --worker` and check.mjs
let parent: string;
let app: string;
beforeAll(async () => {
  tarball = await packOnce();
  maker = project({ 'package.json': JSON.stringify({ name: 'maker', private: true, type: 'module' }) });
  parent = project({});
  app = join(parent, 'edge-app');
  await npmInstall(maker, [tarball, ...CLIENT_PACKAGES]);
  const made = await sh(maker, 'npx', ['--no-install', 'parley-mcp', 'init', app, '--worker']);
  expect(made.stdout).toContain('npm run dev    # wrangler dev');
  await npmInstall(app, [tarball]); // as a user's `npm install`, parley-mcp from the tarball
}, 300_000);
afterAll(() => Promise.all([maker, parent].filter(Boolean).map(dispose)), 120_000);

describe('npx parley-mcp init --worker', () => {
  it('typechecks, and npm test passes in-process', { timeout: 180_000 }, async () => {
    await sh(app, 'npm', ['run', 'typecheck']);
    const { stdout } = await sh(app, 'npm', ['test'], { CI: 'true', NO_COLOR: '1' });
    expect(stdout).toMatch(/Tests\s+2 passed \(2\)/);
  });

  it("npm run build builds the Worker with its Durable Objects bound, under the inbox Worker's budget", { timeout: 120_000 }, async () => {
    const { stdout } = await sh(app, 'npm', ['run', 'build'], wranglerEnv);
    expect(stdout).toMatch(/env\.PARLEY_STORE \(ParleyStore\)\s+Durable Object/);
    expect(stdout).toMatch(/env\.PARLEY_SELF \(edge-app\)\s+Worker/); // itself, which its objects' alarms wake
    const gzipKiB = Number(/Total Upload: .* gzip: ([\d.]+) KiB/.exec(stdout)?.[1]);
    console.log(`parley init --worker, wrangler deploy --dry-run: ${gzipKiB} KiB gzip`);
    expect(gzipKiB * 1024).toBeLessThan(INBOX_WORKER_BUDGET_BYTES);
    expect(readdirSync(join(app, 'dist'))).toContain('worker.js');
  });

  it('npm run dev serves it in wrangler dev: a round, an older client, a task and the inbox, kept in Durable Objects', {
    timeout: 120_000,
  }, async () => {
    // The README's .dev.vars: the secrets wrangler dev reads in place of `wrangler secret put`.
    writeFileSync(
      join(app, '.dev.vars'),
      'VAULT_SECRET=dev-vault-secret-of-some-length\nMCP_SESSION_SECRET=dev-session-secret-of-some-length\n',
    );
    const port = await freePort();
    const dev = await startApp(
      app,
      'npm',
      ['run', 'dev', '--', '--ip', '127.0.0.1', '--port', String(port)],
      wranglerEnv,
      /Ready on (http:\/\/\S+)/,
    );
    try {
      expect(dev.output()).toMatch(/env\.PARLEY_STORE \(ParleyStore\)\s+Durable Object\s+local/);
      const results = await checkClients(maker, new URL('/mcp', dev.url).href, ['v2', 'v1', 'v1-task'], process.execPath, GREET);
      expect(results).toEqual([
        { client: 'v2', version: '2026-07-28', ...ROUND },
        { client: 'v1', version: '2025-11-25', ...ROUND },
        { client: 'v1-task', version: '2025-11-25', ...ROUND },
      ]);
      // The older client's session and the task went to the ParleyStore objects wrangler dev keeps on disk.
      const objects = join(app, '.wrangler/state/v3/do/edge-app-ParleyStore');
      expect(existsSync(objects) && readdirSync(objects).some((file) => file.endsWith('.sqlite'))).toBe(true);
      await answeredInTheInbox(dev.url, dev.output);
      expect(dev.output()).not.toMatch(/\bERROR\b|Server failed to start/);
    } finally {
      await dev.stop();
    }
  });
});

/**
 * The README's inbox, as a person and an older client use it: the client's `approve` call waits on its persistent
 * question, `inbox_link` prints a one-time link on the Worker's log, the person opens the page, signs in with the
 * link's code, finds the question waiting and answers it; the waiting call gets the answer.
 */
async function answeredInTheInbox(origin: string, log: () => string) {
  const client = new Client({ name: 'inbox-check', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', origin)));
  try {
    const waiting = client.callTool({ name: 'approve', arguments: { what: 'deploy-v2' } }, undefined, { timeout: 90_000 });
    const printed = await client.callTool({ name: 'inbox_link', arguments: {} });
    expect(JSON.stringify(printed)).not.toContain('code='); // the link is on the log, never in the agent's result
    const code = await eventually(() => /\/_frontmcp\/inbox#code=([\w-]+)/.exec(log())?.[1]);

    const page = await fetch(new URL('/_frontmcp/inbox', origin));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const signIn = await fetch(new URL('/_frontmcp/sign-in', origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(signIn.status).toBe(204);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const question = await eventually(async () => {
      const listed = (await (await fetch(new URL('/_frontmcp/questions', origin), { headers: { cookie } })).json()) as {
        questions: { id: string; message: string; waiting: boolean }[];
      };
      return listed.questions.find((q) => q.message === 'Approve deploy-v2?' && q.waiting);
    });
    const answer = await fetch(new URL(`/_frontmcp/questions/${question.id}/answer`, origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ action: 'accept', content: { approve: true } }),
    });
    expect(await answer.json()).toEqual({ status: 'answered', action: 'accept', delivered: 'waiting-call' });
    expect((await waiting).structuredContent).toEqual({ approved: true });
  } finally {
    await client.close();
  }
}

/** What `probe` finds within 20 s, polled. */
async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const found = await probe();
    if (found !== undefined) return found;
  }
  throw new Error(`not found in 20 s: ${probe.toString()}`);
}
