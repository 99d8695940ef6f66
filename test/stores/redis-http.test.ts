// Redis over HTTP against real Redis, through the project's Upstash REST test server.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisHttpStore, redisHttpStore } from '../../src/stores/redis-http';
import { probePubSub } from '../../src/stores/probe';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';

// A redis-server of our own on a spare loopback port (until the shared helper test/helpers/redis.ts is used here).
async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const child: ChildProcess = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const up = () => new Promise<boolean>((resolve) => connect(port, '127.0.0.1', function (this: { end(): void }) { this.end(); resolve(true); }).on('error', () => resolve(false)));
  while (!(await up())) await new Promise((r) => setTimeout(r, 20));
  return { url: `redis://127.0.0.1:${port}`, stop: async () => void child.kill() };
}

let redis: { url: string; stop(): Promise<void> };
let server: UpstashServer;
beforeAll(async () => {
  redis = await startRedis();
  server = await startUpstashServer(redis.url);
});
afterAll(async () => {
  await server?.close();
  await redis?.stop();
});

const store = () => new RedisHttpStore({ url: server.url, token: server.token });

describe('Redis over HTTP', () => {
  it('stores, expires, takes once and deletes', async () => {
    const s = store();
    await s.set('k1', 'v1');
    expect(await s.get('k1')).toBe('v1');
    await s.set('k2', 'gone soon', 30);
    await new Promise((r) => setTimeout(r, 80));
    expect(await s.get('k2')).toBeUndefined();
    await s.set('k3', 'once');
    const takes = await Promise.all([s.take('k3'), store().take('k3'), store().take('k3')]);
    expect(takes.filter((t) => t === 'once')).toHaveLength(1);
    await s.delete('k1');
    expect(await s.get('k1')).toBeUndefined();
    await s.close();
  });

  it('passes messages between two stores over server-sent events, without polling', async () => {
    const a = store();
    const b = store();
    const got: string[] = [];
    const stop = await a.subscribe('mcp:result:abc', (m) => got.push(m));
    const before = server.log.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(server.log.slice(before)).toEqual([]); // nothing asked while waiting
    await b.publish('mcp:result:abc', '{"answer":"ünï"}');
    await expect.poll(() => got).toEqual(['{"answer":"ünï"}']);
    await stop();
    await b.publish('mcp:result:abc', 'late');
    await new Promise((r) => setTimeout(r, 50));
    expect(got).toHaveLength(1);
    await probePubSub(a, 'mcp:');
    await a.close();
    await b.close();
  });

  it('refuses what it could not deliver whole, and a wrong token, with clear errors', async () => {
    const s = store();
    await expect(s.subscribe('a channel/with?odd,chars', () => undefined)).rejects.toThrow(/URL-safe/);
    const wrong = new RedisHttpStore({ url: server.url, token: 'nope' });
    await expect(wrong.get('k')).rejects.toThrow(/Redis over HTTP: Unauthorized/);
    await expect(wrong.subscribe('mcp:y', () => undefined)).rejects.toThrow(/Unauthorized/);
    expect(() => redisHttpStore({}, {})).toThrow(/UPSTASH_REDIS_REST_URL/);
    expect(redisHttpStore({}, { UPSTASH_REDIS_REST_URL: server.url, UPSTASH_REDIS_REST_TOKEN: 't' })).toBeInstanceOf(RedisHttpStore);
  });
});
