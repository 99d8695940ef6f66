// Redis over HTTP from inside workerd, against real Redis through the project's Upstash REST test server.
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';

let redis: RunningRedis;
let server: UpstashServer;
let code: string;
let nodeImports: string[];
const workers: Miniflare[] = [];
let a: Miniflare;
let b: Miniflare;
beforeAll(async () => {
  [redis, { code, nodeImports }] = await Promise.all([startRedis(), bundleWorker('test/edge/entries/store-worker.ts')]);
  server = await startUpstashServer(redis.url);
  [a, b] = [worker(), worker()];
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.dispose()));
  await server?.close();
  await redis?.stop();
});

function worker(token = server.token): Miniflare {
  const mf = new Miniflare({
    modules: true,
    script: code,
    compatibilityDate: '2026-04-01',
    cf: false,
    bindings: { UPSTASH_REDIS_REST_URL: server.url, UPSTASH_REDIS_REST_TOKEN: token },
  });
  workers.push(mf);
  return mf;
}

const call = async (mf: Miniflare, path: string, body?: string) => {
  const response = await mf.dispatchFetch(`http://worker${path}`, { method: 'POST', body });
  return { status: response.status, text: await response.text() };
};

describe('Redis over HTTP inside workerd', () => {
  it('bundles the store with no node: import', () => {
    expect(nodeImports).toEqual([]);
  });

  it('stores, takes once and expires, shared by two workerd instances', async () => {
    expect(await call(a, '/set?key=w:k1', 'from a ✓\nline two')).toEqual({ status: 200, text: 'ok' });
    expect((await call(b, '/get?key=w:k1')).text).toBe('from a ✓\nline two');
    expect((await call(b, '/take?key=w:k1')).text).toBe('from a ✓\nline two');
    expect((await call(a, '/take?key=w:k1')).text).toBe('(none)');
    await call(a, '/set?key=w:k2&ttl=30', 'short');
    await new Promise((r) => setTimeout(r, 80));
    expect((await call(b, '/get?key=w:k2')).text).toBe('(none)');
  });

  it('delivers a message published by one workerd instance to a subscriber in another, over server-sent events', async () => {
    const waiting = call(a, '/next-message?channel=w:answers');
    await expect.poll(async () => (await call(b, '/get?key=w:answers:ready')).text, { timeout: 5_000 }).toBe('yes');
    expect(await call(b, '/publish?channel=w:answers', '{"action":"accept"}')).toEqual({ status: 200, text: 'ok' });
    expect(await waiting).toEqual({ status: 200, text: '{"action":"accept"}' });
  });

  it('opens a dropped subscription stream again inside workerd, and the message published after arrives', async () => {
    const waiting = call(a, '/next-message?channel=w:dropped');
    await expect.poll(async () => (await call(b, '/get?key=w:dropped:ready')).text, { timeout: 5_000 }).toBe('yes');
    expect(server.dropStreams()).toBe(1);
    await expect.poll(() => server.openStreams(), { timeout: 5_000 }).toBe(1);
    let answered = false;
    void waiting.then(() => (answered = true));
    // Redis keeps no message for a subscriber that is away: publish until the new stream hears one.
    await expect
      .poll(async () => (await call(b, '/publish?channel=w:dropped', 'after the drop'), answered), { interval: 50, timeout: 5_000 })
      .toBe(true);
    expect(await waiting).toEqual({ status: 200, text: 'after the drop' });
  });

  it('fails with a clear error for a wrong token', async () => {
    const wrong = worker('not-the-token');
    const { status, text } = await call(wrong, '/get?key=w:k1');
    expect(status).toBe(500);
    expect(text).toContain('Redis over HTTP: Unauthorized');
  });
});
