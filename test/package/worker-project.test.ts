// A Worker project as `npx parley-mcp init --worker` makes it from the installed tarball, used as its README says: it
// installs, typechecks and its tests pass; `npm run build` (wrangler deploy --dry-run) builds it with its Durable
// Objects bound, under the budget; `npm run dev` serves it in wrangler dev (workerd), where the official clients
// complete a 2026-07-28 round, an older client's question and a 2025-11-25 task, kept in its Durable Objects.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DURABLE_OBJECTS_WORKER_BUDGET_BYTES } from '../helpers/bundle';
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

  it('npm run build builds the Worker with its Durable Objects bound, under the budget', { timeout: 120_000 }, async () => {
    const { stdout } = await sh(app, 'npm', ['run', 'build'], wranglerEnv);
    expect(stdout).toMatch(/env\.PARLEY_STORE \(ParleyStore\)\s+Durable Object/);
    const gzipKiB = Number(/Total Upload: .* gzip: ([\d.]+) KiB/.exec(stdout)?.[1]);
    console.log(`parley init --worker, wrangler deploy --dry-run: ${gzipKiB} KiB gzip`);
    expect(gzipKiB * 1024).toBeLessThan(DURABLE_OBJECTS_WORKER_BUDGET_BYTES);
    expect(readdirSync(join(app, 'dist'))).toContain('worker.js');
  });

  it('npm run dev serves it in wrangler dev: a round, an older client and a task, kept in Durable Objects', {
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
      expect(dev.output()).not.toMatch(/\bERROR\b|Server failed to start/);
    } finally {
      await dev.stop();
    }
  });
});
