// A project as `npx parley-mcp init` makes it from the installed tarball: it installs, its tests pass, `npm start` serves
// a round; then it deploys as its README says: the Worker wrangler builds from it runs in workerd (miniflare), and its
// Next.js route is built by `next build` and served by `next start`, on Node and on the edge with Upstash, and on the
// edge with the inbox's routes beside it. Every round is a real official client's.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedBlocks } from '../docs/markdown';
import { WORKER_BUDGET_BYTES } from '../helpers/bundle';
import { startRedis } from '../helpers/redis';
import { startUpstashServer } from '../helpers/upstash-server';
import {
  checkClients,
  CLIENT_PACKAGES,
  dispose,
  freePort,
  npmInstall,
  packOnce,
  project,
  ROOT,
  sh,
  startApp,
  type CheckCall,
} from './helpers';

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const GREET: CheckCall = { name: 'greet', arguments: {}, answer: { name: 'Ada' } };
const ROUND = { asked: ['What is your name?'], result: { greeting: 'Hello, Ada!' } };
const V2 = { client: 'v2', version: '2026-07-28', ...ROUND };
const V1 = { client: 'v1', version: '2025-11-25', ...ROUND };
// The versions docs/deployment.md's runtime table names as tested.
const NEXT = ['next@16.4.6', 'react@19.3.1', 'react-dom@19.3.1', '@types/react@19.3.3'];
const wranglerEnv = { WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', CI: 'true' };

let tarball: string;
let maker: string; // a project with the tarball and the clients installed: it runs `npx parley-mcp init` and check.mjs
let parent: string; // where the new project is made, away from maker's node_modules
let app: string;
beforeAll(async () => {
  tarball = await packOnce();
  maker = project({ 'package.json': JSON.stringify({ name: 'maker', private: true, type: 'module' }) });
  parent = project({});
  app = join(parent, 'my-app');
  await npmInstall(maker, [tarball, ...CLIENT_PACKAGES]);
}, 300_000);
afterAll(() => Promise.all([maker, parent].filter(Boolean).map(dispose)), 120_000);

describe('npx parley-mcp init', () => {
  it('prints its usage for --help, refuses a directory that is not empty, and makes the project', { timeout: 60_000 }, async () => {
    const help = await sh(maker, 'npx', ['--no-install', 'parley-mcp', 'init', '--help']);
    expect(help.stderr).toContain('parley init <dir>');
    const refused = await sh(maker, 'npx', ['--no-install', 'parley-mcp', 'init', maker]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('already exists and is not an empty directory') });

    const made = await sh(maker, 'npx', ['--no-install', 'parley-mcp', 'init', app]);
    expect(made.stdout).toContain('Made my-app in');
    const files = (await sh(app, 'find', ['.', '-type', 'f'])).stdout.trim().split('\n').sort();
    expect(files).toEqual([
      './.gitignore',
      './README.md',
      './app/api/mcp/route.ts',
      './next.config.mjs',
      './package.json',
      './src/greet.tool.ts',
      './src/main.ts',
      './src/server.test.ts',
      './src/server.ts',
      './src/worker.ts',
      './tsconfig.json',
      './wrangler.toml',
    ]);
    const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: 'my-app', type: 'module', dependencies: { 'parley-mcp': `^${version}` } });
  });
});

describe('the project it makes', () => {
  beforeAll(async () => {
    // As a user's `npm install`, with parley-mcp taken from the tarball instead of the registry.
    await npmInstall(app, [tarball]);
  }, 300_000);

  it("installs with no npm warning about install scripts: allowScripts covers the tree's", { timeout: 60_000 }, async () => {
    const { stdout } = await sh(app, 'npm', ['install-scripts', 'ls']);
    expect(stdout).toContain('No packages with unreviewed install scripts');
  });

  it('typechecks, and npm test passes with parley-mcp/testing and vitest', { timeout: 180_000 }, async () => {
    await sh(app, 'npm', ['run', 'typecheck']);
    const { stdout } = await sh(app, 'npm', ['test'], { CI: 'true', NO_COLOR: '1' });
    expect(stdout).toMatch(/Tests\s+2 passed \(2\)/);
  });

  it('npm start serves its tool on Node, and both official clients complete a round', { timeout: 90_000 }, async () => {
    const server = await startApp(app, 'npm', ['start'], { PORT: '0' }, /serving (http:\/\/\S+)/);
    try {
      expect(await checkClients(maker, server.url, ['v2', 'v1'], process.execPath, GREET)).toEqual([V2, V1]);
    } finally {
      await server.stop();
    }
  });

  it('wrangler builds its Worker from the package with the edge drivers, under the budget, and it serves a round in workerd', {
    timeout: 120_000,
  }, async () => {
    // The project's own script and its pinned wrangler, on this Node (20 in CI).
    const { stdout } = await sh(
      app,
      'npm',
      ['run', 'worker:deploy', '--', '--dry-run', '--outdir', 'out/worker', '--metafile', 'out/meta.json'],
      wranglerEnv,
    );
    const gzipKiB = Number(/Total Upload: .* gzip: ([\d.]+) KiB/.exec(stdout)?.[1]);
    expect(gzipKiB * 1024).toBeLessThan(WORKER_BUDGET_BYTES);
    const inputs = Object.keys(JSON.parse(await readFile(join(app, 'out/meta.json'), 'utf8')).inputs as Record<string, unknown>);
    expect(inputs).toContain('node_modules/parley-mcp/dist/adapters/cloudflare.js');
    expect(inputs).toContain('node_modules/parley-mcp/dist/app/node-only-edge.js');
    expect(inputs.filter((file) => /node-only-node|better-sqlite3|ioredis|node_modules\/hono\//.test(file))).toEqual([]);
    const code = await readFile(join(app, 'out/worker/worker.js'), 'utf8');
    expect(code).not.toMatch(/from\s*["'](node:|better-sqlite3|ioredis)|import\(["'](better-sqlite3|ioredis)/);

    const mf = new Miniflare({
      modules: true,
      script: code,
      compatibilityDate: '2026-04-01',
      compatibilityFlags: ['nodejs_compat'],
      cf: false,
      host: '127.0.0.1',
      port: 0,
      bindings: { VAULT_SECRET: 'built-by-wrangler' },
    });
    try {
      const url = new URL('/mcp', await mf.ready).href;
      expect(await checkClients(maker, url, ['v2'], process.execPath, GREET)).toEqual([V2]);
    } finally {
      await mf.dispose();
    }
  });

  it('next build builds its app/api/mcp route, and next start serves both official clients there', { timeout: 420_000 }, async () => {
    const env = { NEXT_TELEMETRY_DISABLED: '1', MCP_SESSION_SECRET: 'next-start-in-production' }; // older clients' sessions, in production
    await npmInstall(app, NEXT);
    const started = Date.now();
    await sh(app, process.execPath, ['node_modules/next/dist/bin/next', 'build'], env);
    console.log(`next build: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const port = await freePort();
    const server = await startApp(
      app,
      process.execPath,
      ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)],
      env,
      /(Ready)/,
    );
    try {
      const url = `http://127.0.0.1:${port}/api/mcp`;
      expect(await checkClients(maker, url, ['v2', 'v1'], process.execPath, GREET)).toEqual([V2, V1]);
    } finally {
      await server.stop();
    }
  });

  it("its route on Next.js's edge runtime with Upstash, as docs/deployment.md shows it, serves both official clients", {
    timeout: 420_000,
  }, async () => {
    // The docs' route in place of the project's, @upstash/redis installed, and an Upstash endpoint over a real redis-server.
    const docs = readFileSync(join(ROOT, 'docs/deployment.md'), 'utf8');
    const route = checkedBlocks(docs).find((block) => block.name === 'app/api/mcp/route-edge.ts')!;
    writeFileSync(join(app, 'app/api/mcp/route.ts'), route.code);
    await npmInstall(app, [...NEXT, '@upstash/redis@1.39.0']);
    const redis = await startRedis();
    const upstash = await startUpstashServer(redis.url);
    const env = {
      NEXT_TELEMETRY_DISABLED: '1',
      UPSTASH_REDIS_REST_URL: upstash.url,
      UPSTASH_REDIS_REST_TOKEN: upstash.token,
      VAULT_SECRET: 'next-edge-vault-secret-of-some-length',
      MCP_SESSION_SECRET: 'next-edge-session-secret-of-some-length',
    };
    try {
      const { stdout } = await sh(app, process.execPath, ['node_modules/next/dist/bin/next', 'build'], env);
      expect(stdout).toMatch(/ƒ \/api\/mcp/);
      const port = await freePort();
      const server = await startApp(
        app,
        process.execPath,
        ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)],
        env,
        /(Ready)/,
      );
      try {
        const url = `http://127.0.0.1:${port}/api/mcp`;
        expect(await checkClients(maker, url, ['v2', 'v1'], process.execPath, GREET)).toEqual([V2, V1]);
        expect(server.output()).not.toContain('unhandledRejection');
        // The older client's session went through Redis over HTTP.
        expect(upstash.log.length).toBeGreaterThan(0);
      } finally {
        await server.stop();
      }
    } finally {
      await upstash.close();
      await redis.stop();
    }
  });

  it("the inbox's routes beside it on the edge, as docs/deployment.md shows them: built by next build, served by next start", {
    timeout: 420_000,
  }, async () => {
    // The docs' three files in the project: the handler both routes serve, its MCP route and the inbox's route.
    const blocks = checkedBlocks(readFileSync(join(ROOT, 'docs/deployment.md'), 'utf8'));
    const block = (name: string) => blocks.find((b) => b.name === name)!.code;
    const inboxRoute = 'app/%5Ffrontmcp/[...path]/route.ts';
    writeFileSync(join(app, 'src/edge.ts'), block('src/edge.ts'));
    writeFileSync(join(app, 'app/api/mcp/route.ts'), block('app/api/mcp/route-inbox.ts'));
    mkdirSync(join(app, inboxRoute, '..'), { recursive: true });
    writeFileSync(join(app, inboxRoute), block(inboxRoute));
    await npmInstall(app, [...NEXT, '@upstash/redis@1.39.0']);
    await sh(app, 'npm', ['run', 'typecheck']);
    const redis = await startRedis();
    const upstash = await startUpstashServer(redis.url);
    const env = {
      NEXT_TELEMETRY_DISABLED: '1',
      UPSTASH_REDIS_REST_URL: upstash.url,
      UPSTASH_REDIS_REST_TOKEN: upstash.token,
      VAULT_SECRET: 'next-edge-vault-secret-of-some-length',
      MCP_SESSION_SECRET: 'next-edge-session-secret-of-some-length',
    };
    try {
      const { stdout } = await sh(app, process.execPath, ['node_modules/next/dist/bin/next', 'build'], env);
      expect(stdout).toMatch(/ƒ \/api\/mcp/);
      expect(stdout).toMatch(/ƒ \/(_|%5F)frontmcp\/\[\.\.\.path\]/);
      const port = await freePort();
      const server = await startApp(
        app,
        process.execPath,
        ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)],
        env,
        /(Ready)/,
      );
      try {
        const at = (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${port}${path}`, init);
        const page = await at('/_frontmcp/inbox');
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toContain('text/html');
        expect((await at('/_frontmcp/questions')).status).toBe(401); // nobody signed in
        const signIn = await at('/_frontmcp/sign-in', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code: 'not-a-code' }),
        });
        expect(signIn.status).toBe(401);
        const deadlines = await at('/_frontmcp/deadlines'); // Vercel Cron's route
        expect({ status: deadlines.status, body: await deadlines.json() }).toEqual({ status: 200, body: { sent: 0 } });
        const url = `http://127.0.0.1:${port}/api/mcp`;
        expect(await checkClients(maker, url, ['v2', 'v1'], process.execPath, GREET)).toEqual([V2, V1]);
        expect(server.output()).not.toContain('unhandledRejection');
        expect(upstash.log.length).toBeGreaterThan(0);
      } finally {
        await server.stop();
      }
    } finally {
      await upstash.close();
      await redis.stop();
    }
  });
});
