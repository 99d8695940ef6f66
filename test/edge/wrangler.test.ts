// `wrangler deploy --dry-run` builds the help-desk Worker from wrangler.toml, offline, and what it built serves a round.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Miniflare } from 'miniflare';
import { describe, expect, it } from 'vitest';
import { McpClient } from 'parley-mcp/client';
import { DURABLE_OBJECTS_WORKER_BUDGET_BYTES, TASK_WORKER_BUDGET_BYTES, WORKER_BUDGET_BYTES } from '../helpers/bundle';
import { startRedis } from '../helpers/redis';
import { mcpRequest } from '../helpers/requests';
import { startUpstashServer } from '../helpers/upstash-server';
import { startWorker } from '../helpers/workerd';
import { startDurableWorkers } from '../helpers/durable-objects';

const run = promisify(execFile);
// wrangler 4.86.0 is the newest that runs on Node 20; no metrics, no cf.json download.
const wranglerEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  CI: 'true',
  WRANGLER_BUILD_CONDITIONS: 'parley-source,workerd,worker,browser',
}; // parley-mcp from its source
const dryRun = (outdir: string, ...args: string[]) =>
  run(process.execPath, ['node_modules/wrangler/bin/wrangler.js', 'deploy', '--dry-run', '--outdir', outdir, ...args], {
    env: wranglerEnv,
  });

describe('wrangler deploy --dry-run', () => {
  it('builds the Worker that wrangler.toml names, under the bundle budget, and the build completes an elicitation round in workerd', {
    timeout: 60_000,
  }, async () => {
    const outdir = await mkdtemp(join(tmpdir(), 'parley-wrangler-'));
    try {
      const { stdout } = await dryRun(outdir);
      // What wrangler would upload is under the bundle budget too (test/bundle measures the same build with esbuild).
      const gzipKiB = Number(/Total Upload: .* gzip: ([\d.]+) KiB/.exec(stdout)?.[1]);
      expect(gzipKiB * 1024).toBeLessThan(WORKER_BUDGET_BYTES);
      const code = await readFile(join(outdir, 'worker.js'), 'utf8');
      expect(code).not.toMatch(/from\s*["']node:|require\(["']node:/);
      const mf = new Miniflare({
        modules: true,
        script: code,
        compatibilityDate: '2026-04-01',
        compatibilityFlags: ['nodejs_compat'],
        cf: false,
        bindings: { VAULT_SECRET: 'built-by-wrangler' },
      });
      try {
        const send = async (request: Request) =>
          (await (
            await mf.dispatchFetch(request.url, {
              method: 'POST',
              headers: Object.fromEntries(request.headers),
              body: await request.text(),
            })
          ).json()) as any;
        const call = (extra: Record<string, unknown> = {}) =>
          mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-3' }, ...extra });
        const first = await send(call());
        expect(first.result.resultType).toBe('input_required');
        const done = await send(
          call({
            inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } },
            requestState: first.result.requestState,
          }),
        );
        expect(done.result.structuredContent).toEqual({ closed: true, id: 'T-3', note: '' });
      } finally {
        await mf.dispose();
      }
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });

  it('builds the redis-http environment from examples/cloudflare/worker-redis-http.ts, with Redis over HTTP in it', {
    timeout: 60_000,
  }, async () => {
    const outdir = await mkdtemp(join(tmpdir(), 'parley-wrangler-'));
    try {
      await dryRun(outdir, '--env', 'redis-http');
      const code = await readFile(join(outdir, 'worker-redis-http.js'), 'utf8');
      // Nothing listens on port 9: the store is in the bundle, so the startup probe is what fails.
      const worker = startWorker(code, { UPSTASH_REDIS_REST_URL: 'http://127.0.0.1:9', UPSTASH_REDIS_REST_TOKEN: 't' });
      try {
        expect((await worker.send(mcpRequest('ping'))).status).toBe(503);
        await expect
          .poll(() => worker.output())
          .toContain("ElicitationNotSupportedError: Redis over HTTP can't publish and subscribe here");
      } finally {
        await worker.dispose();
      }
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });

  it('builds the tasks environment into one module (enableTasks() inlines the tasks code), under its budget, and runs a task to its end', {
    timeout: 90_000,
  }, async () => {
    const outdir = await mkdtemp(join(tmpdir(), 'parley-wrangler-'));
    const redis = await startRedis();
    const upstash = await startUpstashServer(redis.url);
    try {
      const { stdout } = await dryRun(outdir, '--env', 'tasks');
      const gzipKiB = Number(/Total Upload: .* gzip: ([\d.]+) KiB/.exec(stdout)?.[1]);
      expect(gzipKiB * 1024).toBeLessThan(TASK_WORKER_BUDGET_BYTES);
      expect((await readdir(outdir)).filter((file) => file.endsWith('.js'))).toEqual(['worker-tasks.js']);
      const code = await readFile(join(outdir, 'worker-tasks.js'), 'utf8');
      const worker = startWorker(code, { UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token });
      const client = new McpClient({ url: new URL('/mcp', await worker.mf.ready), tasks: { minPollMs: 20 } });
      client.onElicitation(() => ({ action: 'accept', content: { confirm: true } }));
      try {
        const result = await client.callTool({ name: 'export_tickets', arguments: { status: 'closed' } });
        expect(result.content).toEqual([{ type: 'text', text: 'tickets-closed.csv: 12 rows' }]);
      } finally {
        await client.close();
        await worker.dispose();
      }
    } finally {
      await upstash.close();
      await redis.stop();
      await rm(outdir, { recursive: true, force: true });
    }
  });

  it('builds the durable-objects environment, its binding and migration checked, and the build starts on its Durable Objects', {
    timeout: 90_000,
  }, async () => {
    const outdir = await mkdtemp(join(tmpdir(), 'parley-wrangler-'));
    try {
      const { stdout } = await dryRun(outdir, '--env', 'durable-objects');
      expect(stdout).toMatch(/env\.PARLEY_STORE \(ParleyStore\)\s+Durable Object/);
      const gzipKiB = Number(/Total Upload: .* gzip: ([\d.]+) KiB/.exec(stdout)?.[1]);
      expect(gzipKiB * 1024).toBeLessThan(DURABLE_OBJECTS_WORKER_BUDGET_BYTES);
      const code = await readFile(join(outdir, 'worker-durable-objects.js'), 'utf8');
      const workers = startDurableWorkers({ code });
      try {
        const response = await workers.send('a', '/mcp', {
          method: 'POST',
          headers: mcpRequest('tools/list').headers,
          body: await mcpRequest('tools/list').text(),
        });
        expect(response.status).toBe(200);
        expect(await response.text()).toContain('export_tickets');
        expect(workers.output()).not.toContain('Server failed to start');
      } finally {
        await workers.dispose();
      }
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
});
