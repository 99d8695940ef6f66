// The probes inside workerd: they come from the fetch handler, so a Worker answers them with no code of its own.
import { afterAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startWorker, type RunningWorker } from '../helpers/workerd';

const workers: RunningWorker[] = [];
afterAll(() => Promise.all(workers.map((w) => w.dispose())));

async function worker(entry: string): Promise<RunningWorker> {
  const running = startWorker((await bundleWorker(entry)).code);
  workers.push(running);
  return running;
}

describe('health and readiness on Workers', () => {
  it('a Worker that starts: /healthz and /readyz 200 on GET and HEAD', async () => {
    const w = await worker('examples/cloudflare/worker.ts');
    for (const method of ['GET', 'HEAD']) {
      const ready = await w.send(new Request('http://worker.example/readyz', { method }));
      expect([ready.status, await ready.text()]).toEqual([200, method === 'GET' ? 'ok\n' : '']);
      expect((await w.send(new Request('http://worker.example/healthz', { method }))).status).toBe(200);
    }
  });

  it('a Worker that cannot start: /healthz 200, /readyz 503 with Retry-After and no detail', async () => {
    const w = await worker('test/edge/entries/worker-no-store.ts');
    expect((await w.send(new Request('http://worker.example/healthz'))).status).toBe(200);
    const ready = await w.send(new Request('http://worker.example/readyz'));
    expect([ready.status, ready.headers.get('retry-after'), await ready.text()]).toEqual([503, '5', 'unavailable\n']);
  });
});
