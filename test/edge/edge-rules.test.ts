// Inside workerd: the docs' refusals for an edge isolate (every protocol version gets the 503), Vercel KV, Redis over
// HTTP without publish/subscribe, and the elicitation.edge: 'stateless' opt-in serving 2026-07-28 rounds in full.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { mcpRequest, rawPost } from '../helpers/requests';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';
import { startWorker, type RunningWorker } from '../helpers/workerd';

let code: string;
beforeAll(async () => {
  ({ code } = await bundleWorker('test/edge/entries/desk-worker.ts'));
});

async function withWorker(bindings: Record<string, string>, run: (worker: RunningWorker) => Promise<void>): Promise<void> {
  const worker = startWorker(code, bindings);
  try {
    await run(worker);
  } finally {
    await worker.dispose();
  }
}

const initialize = (version: string) =>
  rawPost(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: { elicitation: {} }, clientInfo: { name: 'old', version: '1' } },
    }),
    {
      accept: 'application/json, text/event-stream',
    },
  );

/** A request of each era: 2026-07-28, the legacy handshake of 2025-11-25 and 2025-03-26, and one naming no version. */
const everyEra = () => [
  mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' } }),
  initialize('2025-11-25'),
  initialize('2025-03-26'),
  rawPost(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { accept: 'application/json, text/event-stream' }),
];

async function expectRefused(worker: RunningWorker, logLine: string): Promise<void> {
  for (const request of everyEra()) {
    const response = await worker.send(request);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: 'SERVER_START_FAILED' });
  }
  await expect.poll(() => worker.output()).toContain(`[parley] ERROR Server failed to start: ElicitationNotSupportedError: ${logLine}`);
}

describe('refusals inside workerd', () => {
  it('without a store, every request of every protocol version gets 503 SERVER_START_FAILED', async () => {
    await withWorker({ ELICITATION: '{"enabled":true}' }, (worker) =>
      expectRefused(worker, 'Elicitation requires distributed storage when running on Edge runtime'),
    );
  });

  it('refuses Vercel KV as the only store, named in the config or found as KV_REST_API_URL', async () => {
    const message = 'Vercel KV is not supported for elicitation stores';
    await withWorker({ ELICITATION: '{"enabled":true,"redis":{"provider":"vercel-kv"}}' }, (worker) => expectRefused(worker, message));
    await withWorker(
      { ELICITATION: '{"enabled":true,"edge":"stateless"}', KV_REST_API_URL: 'https://kv.example.com', KV_REST_API_TOKEN: 't' },
      (worker) => expectRefused(worker, message),
    );
  });
});

describe('Redis over HTTP that cannot subscribe, inside workerd', () => {
  let redis: RunningRedis;
  let noPubSub: UpstashServer;
  beforeAll(async () => {
    redis = await startRedis();
    noPubSub = await startUpstashServer(redis.url, { subscribe: false });
  });
  afterAll(async () => {
    await noPubSub?.close();
    await redis?.stop();
  });

  it('is refused at startup: the probe found no publish/subscribe', async () => {
    const bindings = {
      ELICITATION: '{"enabled":true,"redis":{"provider":"upstash"}}',
      UPSTASH_REDIS_REST_URL: noPubSub.url,
      UPSTASH_REDIS_REST_TOKEN: noPubSub.token,
    };
    await withWorker(bindings, (worker) =>
      expectRefused(worker, "Redis over HTTP can't publish and subscribe here (ERR SUBSCRIBE is not supported)"),
    );
  });
});

describe("elicitation.edge: 'stateless' inside workerd", () => {
  it('serves 2026-07-28 elicitation in full, with no store', async () => {
    await withWorker({ ELICITATION: '{"enabled":true,"edge":"stateless"}', VAULT_SECRET: 'stateless-secret' }, async (worker) => {
      const call = (extra: Record<string, unknown> = {}) =>
        mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-5' }, ...extra });
      const first = (await (await worker.send(call())).json()) as any;
      expect(first.result.resultType).toBe('input_required');
      const answer = {
        inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true, note: 'done' } } },
        requestState: first.result.requestState,
      };
      const done = (await (await worker.send(call(answer))).json()) as any;
      expect(done.result.structuredContent).toEqual({ closed: true, id: 'T-5', note: 'done' });
      expect(worker.output()).toContain("No elicitation store on this Edge runtime (elicitation.edge: 'stateless')");
    });
  });

  it('completes a round across two workerd instances that share VAULT_SECRET; with different secrets the state is refused', async () => {
    const stateless = '{"enabled":true,"edge":"stateless"}';
    const [one, two, other] = [
      startWorker(code, { ELICITATION: stateless, VAULT_SECRET: 'fleet-secret' }),
      startWorker(code, { ELICITATION: stateless, VAULT_SECRET: 'fleet-secret' }),
      startWorker(code, { ELICITATION: stateless, VAULT_SECRET: 'another-secret' }),
    ];
    try {
      const call = (extra: Record<string, unknown> = {}) =>
        mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-6' }, ...extra });
      const first = (await (await one.send(call())).json()) as any;
      const answer = {
        inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } },
        requestState: first.result.requestState,
      };
      const done = (await (await two.send(call(answer))).json()) as any;
      expect(done.result.structuredContent).toEqual({ closed: true, id: 'T-6', note: '' });
      const again = (await (await other.send(call(answer))).json()) as any;
      expect(again.result).toBeUndefined();
      expect(again.error.code).toBe(-32602);
      await expect.poll(() => other.output()).toContain('which this instance does not list');
    } finally {
      await Promise.all([one.dispose(), two.dispose(), other.dispose()]);
    }
  });
});
