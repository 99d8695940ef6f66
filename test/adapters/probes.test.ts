// Health and readiness as an orchestrator probes them: /healthz while the process answers, /readyz only while the
// server is built, its store answers and it is not shutting down; SIGTERM flips readiness, then drains the calls.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { sparePort } from '../helpers/ports';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { mcpRequest, read } from '../helpers/requests';

const REPO = resolve(__dirname, '../..');
const info = { name: 'probed', version: '1.0.0' };
const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
});

const probe = (base: string, path: string, method = 'GET') => fetch(new URL(path, base), { method });

describe('probes through serve()', () => {
  it('answer GET and HEAD before the Host check, with nothing to learn from the body', async () => {
    const running = await serve({ info }, { port: 0, quiet: true });
    stops.push(() => running.close({ graceMs: 0 }));
    const live = await probe(running.url, '/healthz');
    expect([live.status, await live.text(), live.headers.get('cache-control')]).toEqual([200, 'ok\n', 'no-store']);
    const head = await probe(running.url, '/readyz', 'HEAD');
    expect([head.status, await head.text()]).toEqual([200, '']);
    // A kubelet names the pod's address as Host; bound to loopback, the MCP endpoint refuses that Host, the probes don't.
    const { request } = await import('node:http');
    const status = await new Promise<number | undefined>((done) =>
      request(new URL('/readyz', running.url), { headers: { host: '10.1.2.3:8080' } }, (res) => {
        res.resume();
        done(res.statusCode);
      }).end(),
    );
    expect(status).toBe(200);
    expect((await probe(running.url, '/readyz', 'POST')).status).not.toBe(200);
  });

  it('a Kubernetes sequence: 200 while Redis answers, 503 with Retry-After while it is down, 200 again, 503 during close()', async () => {
    let redis: RunningRedis = await startRedis();
    stops.push(() => redis.stop());
    const running: RunningServer = await serve(
      { info, elicitation: { enabled: true }, redis: { url: redis.url }, health: { readyzPath: '/ready' } },
      { port: 0, quiet: true },
    );
    stops.push(() => running.close({ graceMs: 0 }));
    expect((await probe(running.url, '/ready')).status).toBe(200);
    expect((await probe(running.url, '/readyz')).status).toBe(404); // the path moved
    await redis.stop();
    const down = await probe(running.url, '/ready');
    expect([down.status, down.headers.get('retry-after'), await down.text()]).toEqual([503, '5', 'unavailable\n']);
    expect((await probe(running.url, '/healthz')).status).toBe(200); // the process still answers
    redis = await startRedis({ port: redis.port });
    await expect.poll(async () => (await probe(running.url, '/ready')).status, { timeout: 10_000 }).toBe(200);
    const closing = running.close({ graceMs: 0 });
    expect((await probe(running.url, '/ready').catch(() => undefined))?.status ?? 503).toBe(503);
    await closing;
  });
});

describe('probes on the lazy fetch handler (Workers, Vercel, Bun, Deno)', () => {
  it('/readyz is 503 while the server cannot be built (its store unreachable) and 200 once it can', async () => {
    const port = await sparePort();
    const handler = createFetchHandler({ info, elicitation: { enabled: true }, redis: { url: `redis://127.0.0.1:${port}` } });
    stops.push(() => handler.close({ graceMs: 0 }));
    const before = await handler(new Request('http://127.0.0.1/readyz'));
    expect([before.status, before.headers.get('retry-after')]).toEqual([503, '5']);
    expect((await handler(new Request('http://127.0.0.1/healthz'))).status).toBe(200);
    const redis = await startRedis({ port });
    stops.push(() => redis.stop());
    expect((await handler(new Request('http://127.0.0.1/readyz'))).status).toBe(200);
  });

  it("/readyz reads every store: persistent questions' own Redis down is 503 too, with nothing in the body", async () => {
    const sessions = await startRedis(); // the elicitation store, where older clients' sessions live too
    let redis: RunningRedis = await startRedis();
    stops.push(
      () => sessions.stop(),
      () => redis.stop(),
    );
    const persistent = { storage: { type: 'redis' as const, redis: redis.url } };
    const handler = createFetchHandler({
      info,
      redis: { url: sessions.url },
      elicitation: { enabled: true, persistent },
      logging: { level: 'error' as const },
    });
    stops.push(() => handler.close({ graceMs: 0 }));
    const ready = () => handler(new Request('http://127.0.0.1/readyz'));
    expect((await ready()).status).toBe(200);
    await redis.stop();
    const down = await ready();
    expect([down.status, await down.text()]).toEqual([503, 'unavailable\n']);
    redis = await startRedis({ port: redis.port });
    await expect.poll(async () => (await ready()).status, { timeout: 10_000 }).toBe(200);
  });

  it('health: { enabled: false } leaves the paths to the app (404 here)', async () => {
    const handler = createFetchHandler({ info, health: { enabled: false } });
    expect((await handler(new Request('http://127.0.0.1/healthz'))).status).toBe(404);
  });
});

describe('SIGTERM to a real process with calls in flight', () => {
  it('the calls in flight finish or end with -31002 under their ids, /readyz and new calls get 503, and the process exits 0 by itself', async () => {
    const child = spawn(process.execPath, ['--conditions=parley-source', '--import', 'tsx', 'test/fixtures/slow-server.ts'], {
      cwd: REPO,
      env: { ...process.env, GRACE_MS: '4000' },
    });
    const exited = new Promise<{ code: number | null; signal: string | null }>((done) =>
      child.once('exit', (code, signal) => done({ code, signal })),
    );
    stops.push(async () => void child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((done, fail) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = /listening (\S+)/.exec(out);
        if (found) done(found[1]!);
      });
      child.once('exit', () => fail(new Error(`the server exited: ${stderr}`)));
    });
    const call = (ms: number) => fetch(mcpRequest('tools/call', { name: 'slow', arguments: { ms } }, { url }));
    const inFlight = [call(1_500), call(2_000)];
    // Still running when the grace ends: answered with the shutdown error, not cut.
    const overrun = mcpRequest('tools/call', { name: 'slow', arguments: { ms: 60_000 } }, { url });
    const overrunId = ((await overrun.clone().json()) as { id: number }).id;
    const cut = fetch(overrun);
    await new Promise((resolve) => setTimeout(resolve, 300)); // both calls reached the tool
    child.kill('SIGTERM');
    await expect.poll(async () => (await probe(url, '/readyz')).status).toBe(503);
    const refused = await read(await call(10));
    expect(refused.status).toBe(503);
    expect(refused.body.error.data.code).toBe('SHUTTING_DOWN');
    for (const [i, response] of (await Promise.all(inFlight)).entries()) {
      const answer = await read(response);
      expect(answer.status).toBe(200);
      expect(answer.body.result.content[0].text).toBe(`done after ${[1_500, 2_000][i]}`);
    }
    const ended = await read(await cut);
    expect(ended.status).toBe(503);
    expect(ended.body).toMatchObject({ id: overrunId, error: { code: -31002, data: { code: 'SHUTTING_DOWN' } } });
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(stderr).toContain('SIGTERM: shutting down');
  });
});
