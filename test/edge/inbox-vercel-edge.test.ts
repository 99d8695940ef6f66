// Persistent questions and the inbox on Vercel's edge runtime (edge-runtime), two isolates sharing Redis over HTTP in
// front of a real redis-server: a question filed by a tool on one is answered through the inbox's routes on the other,
// and the next call gets the answer; another person, made-up ids and no session are refused.
import { EdgeRuntime, runServer } from 'edge-runtime';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';
import { inboxAcrossIsolates } from './inbox-edge';

let redis: RunningRedis;
let upstash: UpstashServer;
const servers: Awaited<ReturnType<typeof runServer>>[] = [];
const origins: Record<'a' | 'b', string> = { a: '', b: '' };
beforeAll(async () => {
  redis = await startRedis();
  upstash = await startUpstashServer(redis.url);
  const { code } = await bundleWorker('test/edge/entries/vercel-inbox.ts', { format: 'iife' });
  const env = {
    UPSTASH_REDIS_REST_URL: upstash.url,
    UPSTASH_REDIS_REST_TOKEN: upstash.token,
    MCP_ELICITATION_SECRET: 'vercel-edge-inbox-secret-0123456789',
  };
  for (const name of ['a', 'b'] as const) {
    const runtime = new EdgeRuntime({ initialCode: code, extend: (context) => Object.assign(context, { process: { env } }) });
    const server = await runServer({ runtime, host: '127.0.0.1', port: 0 });
    servers.push(server);
    origins[name] = server.url.replace(/\/$/, '');
  }
}, 60_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await upstash?.close();
  await redis?.stop();
});

describe('the inbox on the Vercel edge with Upstash, in edge-runtime', () => {
  it('files on one isolate, answers on the other, and the next call gets it', { timeout: 60_000 }, async () => {
    await inboxAcrossIsolates((to, path, init) => fetch(`${origins[to]}${path}`, init));
  });
});
