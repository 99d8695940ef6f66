// Persistent questions and the inbox on Vercel's edge runtime (edge-runtime), two isolates sharing Redis over HTTP in
// front of a real redis-server: a question filed by a tool on one is answered through the inbox's routes on the other,
// and the next call gets the answer; another person, made-up ids and no session are refused. And deadlines by the
// mechanism the docs give for Redis over HTTP, which has no timer: the cron route sends a nudge once due, a webhook's
// retry after a 503 is kept in Redis and sent by the cron route on the other isolate, and questions filed on both
// isolates at once each keep their nudge.
import { createHmac } from 'node:crypto';
import { EdgeRuntime, runServer } from 'edge-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';
import { receiver } from '../helpers/webhook-receiver';
import { inboxAcrossIsolates, inboxClient, type Send } from './inbox-edge';

let redis: RunningRedis;
let upstash: UpstashServer;
let code: string;
const servers: Awaited<ReturnType<typeof runServer>>[] = [];

/** Two isolates of the route, each an edge-runtime server of its own, sharing Redis over HTTP; `extra` joins their env. */
async function startPair(extra: Record<string, string> = {}): Promise<Send> {
  const env = {
    UPSTASH_REDIS_REST_URL: upstash.url,
    UPSTASH_REDIS_REST_TOKEN: upstash.token,
    MCP_ELICITATION_SECRET: 'vercel-edge-inbox-secret-0123456789',
    ...extra,
  };
  const origins: Record<'a' | 'b', string> = { a: '', b: '' };
  for (const name of ['a', 'b'] as const) {
    const runtime = new EdgeRuntime({ initialCode: code, extend: (context) => Object.assign(context, { process: { env } }) });
    const server = await runServer({ runtime, host: '127.0.0.1', port: 0 });
    servers.push(server);
    origins[name] = server.url.replace(/\/$/, '');
  }
  return (to, path, init) => fetch(`${origins[to]}${path}`, init);
}

beforeAll(async () => {
  redis = await startRedis();
  upstash = await startUpstashServer(redis.url);
  ({ code } = await bundleWorker('test/edge/entries/vercel-inbox.ts', { format: 'iife' }));
}, 60_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await upstash?.close();
  await redis?.stop();
});

describe('the inbox on the Vercel edge with Upstash, in edge-runtime', () => {
  it('files on one isolate, answers on the other, and the next call gets it', { timeout: 60_000 }, async () => {
    await inboxAcrossIsolates(await startPair());
  });
});

const HOOK_SECRET = 'whsec-vercel-edge-0123456789';
const AFTER_MS = 800;
const BACKOFF_MS = 1_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('deadlines on the Vercel edge with Upstash, by the cron route', () => {
  it('sends a nudge once due and its retry after a 503 from the other isolate; questions filed at once each keep theirs', {
    timeout: 90_000,
  }, async () => {
    const hook = await receiver([503, 204]);
    try {
      const send = await startPair({
        PERSISTENT: JSON.stringify({ notify: { url: hook.url, secret: HOOK_SECRET, attempts: 3, backoffMs: BACKOFF_MS } }),
        UNANSWERED: JSON.stringify({ afterMs: AFTER_MS, then: 'inbox' }),
      });
      const deadlines = async (to: 'a' | 'b') => (await (await send(to, '/_frontmcp/deadlines')).json()) as { sent: number };
      const s = inboxClient(send);
      await s.call('a', 'dana', 'confirm_refund', { order: 'V-1' });
      expect(await deadlines('b')).toEqual({ sent: 0 });
      await sleep(AFTER_MS + 100);
      expect(await deadlines('b')).toEqual({ sent: 1 }); // refused: 503
      expect(await deadlines('a')).toEqual({ sent: 0 }); // the retry waits in Redis
      await sleep(BACKOFF_MS + 100);
      expect(await deadlines('a')).toEqual({ sent: 1 });
      const [first, second] = hook.received;
      expect(hook.received).toHaveLength(2);
      expect(second!.headers['parley-delivery']).toBe(first!.headers['parley-delivery']);
      const timestamp = String(second!.headers['parley-timestamp']);
      expect(second!.headers['parley-signature']).toBe(
        `v1=${createHmac('sha256', HOOK_SECRET).update(`${timestamp}.${second!.body}`).digest('hex')}`,
      );

      const orders = Array.from({ length: 16 }, (_, i) => `VR-${i}`);
      await Promise.all(orders.map((order, i) => s.call(i % 2 ? 'a' : 'b', `racer-${i}`, 'confirm_refund', { order })));
      await sleep(AFTER_MS + 100);
      await deadlines('a');
      await deadlines('b');
      await expect.poll(() => hook.received.length - 2, { timeout: 10_000 }).toBe(orders.length);
      const messages = hook.received.slice(2).map((r) => (JSON.parse(r.body) as { message: string }).message);
      expect(messages.sort()).toEqual(orders.map((order) => `Confirm refund ${order}?`).sort());
    } finally {
      await hook.close();
    }
  });
});
