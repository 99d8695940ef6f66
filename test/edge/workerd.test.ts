import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { mcpRequest } from '../helpers/requests';
import { startWorker } from '../helpers/workerd';

let worker: { code: string; nodeImports: string[] };
beforeAll(async () => {
  worker = await bundleWorker('examples/cloudflare/worker.ts');
});

async function withWorker<T>(bindings: Record<string, string>, run: (mf: Miniflare) => Promise<T>): Promise<T> {
  const mf = new Miniflare({ modules: true, script: worker.code, compatibilityDate: '2026-04-01', bindings, cf: false });
  try {
    return await run(mf);
  } finally {
    await mf.dispose();
  }
}

const send = async (mf: Miniflare, request: Request) => {
  const response = await mf.dispatchFetch(request.url, {
    method: 'POST',
    headers: Object.fromEntries(request.headers),
    body: await request.text(),
  });
  return (await response.json()) as any;
};

describe('the core inside workerd', () => {
  it('bundles with no node: import', () => {
    expect(worker.nodeImports).toEqual([]);
    expect(worker.code).not.toMatch(/from\s*["']node:/);
  });

  it('completes an elicitation round inside a Worker', async () => {
    await withWorker({ VAULT_SECRET: 'shared-secret-for-tests' }, async (mf) => {
      const call = (extra: Record<string, unknown> = {}) =>
        mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' }, ...extra });
      const first = await send(mf, call());
      expect(first.result.resultType).toBe('input_required');
      const done = await send(
        mf,
        call({
          inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } },
          requestState: first.result.requestState,
        }),
      );
      expect(done.result.structuredContent).toEqual({ closed: true, id: 'T-1', note: '' });
    });
  });

  it('given Upstash credentials, refuses to start and says how to put Redis over HTTP in the bundle', async () => {
    const running = startWorker(worker.code, { UPSTASH_REDIS_REST_URL: 'https://redis.example.com', UPSTASH_REDIS_REST_TOKEN: 't' });
    try {
      for (const request of [mcpRequest('tools/list'), mcpRequest('ping')]) {
        const response = await running.send(request);
        expect(response.status).toBe(503);
        expect(await response.json()).toMatchObject({ error: 'SERVER_START_FAILED' });
      }
      await expect
        .poll(() => running.output())
        .toContain(
          "Server failed to start: Error: Redis over HTTP is not in this bundle: an edge bundle leaves @upstash/redis out unless the entry calls enableRedisHttp() from 'parley-mcp/redis-http'",
        );
    } finally {
      await running.dispose();
    }
  });
});

afterAll(() => undefined);
