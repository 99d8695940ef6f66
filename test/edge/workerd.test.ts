import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { mcpRequest } from '../helpers/requests';

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
  const response = await mf.dispatchFetch(request.url, { method: 'POST', headers: Object.fromEntries(request.headers), body: await request.text() });
  return (await response.json()) as any;
};

describe('the core inside workerd', () => {
  it('bundles with no node: import', () => {
    expect(worker.nodeImports).toEqual([]);
    expect(worker.code).not.toMatch(/from\s*["']node:/);
  });

  it('completes an elicitation round inside a Worker', async () => {
    await withWorker({ VAULT_SECRET: 'shared-secret-for-tests' }, async (mf) => {
      const call = (extra: Record<string, unknown> = {}) => mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' }, ...extra });
      const first = await send(mf, call());
      expect(first.result.resultType).toBe('input_required');
      const done = await send(mf, call({ inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } }, requestState: first.result.requestState }));
      expect(done.result.structuredContent).toEqual({ closed: true, id: 'T-1', note: '' });
    });
  });
});

afterAll(() => undefined);
