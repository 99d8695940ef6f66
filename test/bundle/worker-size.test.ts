// The bundle budget: the help-desk Worker, minified and gzipped as wrangler builds it, stays under 110 KB; what an edge
// bundle leaves out (Redis over HTTP, persistent questions) stays out until an entry asks for it.
import { describe, expect, it } from 'vitest';
import { measureWorker, WORKER_BUDGET_BYTES, type WorkerSize } from '../helpers/bundle';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const describeParts = (size: WorkerSize) => size.parts.map(([where, bytes]) => `${where} ${kb(bytes)}`).join(', ');

describe('the Worker bundle', () => {
  it('is under the budget for the help-desk Worker', async () => {
    const size = await measureWorker('examples/cloudflare/worker.ts');
    expect(size.gzip, `${kb(size.gzip)} gzip is over ${kb(WORKER_BUDGET_BYTES)}; minified: ${describeParts(size)}`).toBeLessThan(
      WORKER_BUDGET_BYTES,
    );
  });

  it('leaves out @upstash/redis and the inbox unless the entry asks for Redis over HTTP', async () => {
    const [core, withHttp] = await Promise.all([
      measureWorker('examples/cloudflare/worker.ts'),
      measureWorker('examples/cloudflare/worker-redis-http.ts'),
    ]);
    const where = (size: WorkerSize) => size.parts.map(([w]) => w);
    expect(where(core)).not.toContain('@upstash/redis');
    expect(where(withHttp)).toContain('@upstash/redis');
    // Persistent questions are refused on an edge isolate: their options and errors come along, not the subsystem
    // (nor hono, which only their inbox uses).
    for (const size of [core, withHttp]) {
      expect(where(size)).not.toContain('hono');
      expect(size.files).toContain('src/app/questions.ts');
      for (const file of ['setup.ts', 'service.ts', 'routes.ts', 'page-script.ts', 'question-store.ts', 'delivery.ts', 'codec.ts'])
        expect(size.files).not.toContain(`src/inbox/${file}`);
      // Tasks are loaded only where a tool may run as one, and not on the edge yet: their store and runs stay out.
      for (const file of ['task-runtime.ts', 'task-call.ts', 'tasks/task-store.ts', 'tasks/task-work.ts'])
        expect(size.files).not.toContain(`src/engine/${file}`);
    }
  });
});
