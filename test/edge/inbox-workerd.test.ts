// Persistent questions and the inbox on Cloudflare Workers, in workerd: filed by a tool on one isolate, answered through
// the inbox's routes on another, the next call getting the answer; with the store in Durable Objects (an isolate of
// their own), and in Redis over HTTP (the Upstash REST test server on a real redis-server). And the refusals that
// name what to call or bind when the Worker has no inbox in its bundle or no store to keep questions in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers } from '../helpers/durable-objects';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { mcpRequest } from '../helpers/requests';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';
import { upstashBindings } from '../helpers/worker-pair';
import { startWorker, type RunningWorker } from '../helpers/workerd';
import { inboxAcrossIsolates } from './inbox-edge';

let code: string;
let redis: RunningRedis | undefined;
let upstash: UpstashServer | undefined;
const running: { dispose(): Promise<void> }[] = [];
beforeAll(async () => {
  const bundle = await bundleWorker('test/edge/entries/inbox-worker.ts');
  expect(bundle.nodeImports).toEqual([]);
  code = bundle.code;
});
afterAll(async () => {
  await Promise.all(running.map((w) => w.dispose()));
  await upstash?.close();
  await redis?.stop();
});

const sendTo =
  (workers: Record<'a' | 'b', RunningWorker>) =>
  async (to: 'a' | 'b', path: string, init: RequestInit = {}) =>
    (await workers[to].mf.dispatchFetch(`http://127.0.0.1${path}`, init as never)) as unknown as Response;

describe('the inbox on Workers', () => {
  it('with Durable Objects: filed on one isolate, answered on another, the next call gets it', { timeout: 60_000 }, async () => {
    const workers = startDurableWorkers({ code });
    running.push(workers);
    await inboxAcrossIsolates(workers.send);
    expect(workers.output()).not.toContain('ERROR');
  });

  it('with Redis over HTTP (Upstash): the same, encrypted at rest', { timeout: 60_000 }, async () => {
    redis = await startRedis();
    upstash = await startUpstashServer(redis.url);
    const bindings = { ...upstashBindings(upstash), MCP_ELICITATION_SECRET: 'inbox-edge-secret-0123456789abcdef' };
    const pair = { a: startWorker(code, bindings), b: startWorker(code, bindings) };
    running.push(pair.a, pair.b);
    await inboxAcrossIsolates(sendTo(pair));
    expect(pair.a.output() + pair.b.output()).not.toContain('ERROR');
  });

  const refusal = async (bindings: Record<string, string>) => {
    const worker = startWorker(code, bindings);
    running.push(worker);
    expect((await worker.send(mcpRequest('tools/list'))).status).toBe(503);
    await expect.poll(() => worker.output()).toContain('Server failed to start');
    return worker.output();
  };

  it('refuses to start without enableInbox(), naming it', async () => {
    expect(await refusal({ INBOX: 'off' })).toContain(
      "Invalid elicitation.persistent: persistent questions are not in this bundle: the Worker's entry must call enableInbox() from 'parley-mcp/inbox'",
    );
  });

  it('refuses to start with no store that outlives the isolate, naming what to bind or set', async () => {
    expect(await refusal({})).toContain(
      'Invalid elicitation.persistent: on an edge runtime they are kept in the elicitation store, and there is none that outlives this isolate: bind the ParleyStore class as PARLEY_STORE',
    );
  });

  it('refuses questions kept in memory there (SQLite too: test/inbox/startup.test.ts)', async () => {
    expect(await refusal({ PERSISTENT: '{"storage":{"type":"memory"}}' })).toContain(
      "storage { type: 'memory' } ends with the isolate on an edge runtime",
    );
  });
});
