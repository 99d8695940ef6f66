// The bundle budget: the help-desk Worker, minified and gzipped as wrangler builds it, stays under 119.75 KB; what an edge
// bundle leaves out (Redis over HTTP, Durable Objects, tasks, persistent questions) stays out until an entry asks for
// it, and a Worker that asks for tasks, or for tasks in Durable Objects, has a budget of its own.
import { describe, expect, it } from 'vitest';
import {
  DURABLE_OBJECTS_WORKER_BUDGET_BYTES,
  INBOX_WORKER_BUDGET_BYTES,
  measureWorker,
  TASK_WORKER_BUDGET_BYTES,
  WORKER_BUDGET_BYTES,
  type WorkerSize,
} from '../helpers/bundle';

const TASK_FILES = ['tasks/task-runtime.ts', 'tasks/task-call.ts', 'tasks/task-store.ts', 'tasks/task-work.ts'];
const INBOX_FILES = ['setup.ts', 'service.ts', 'routes.ts', 'page-script.ts', 'question-store.ts', 'delivery.ts', 'codec.ts'];
const DURABLE_FILES = ['src/stores/durable-object.ts', 'src/stores/durable-objects.ts', 'src/stores/durable-objects-socket.ts'];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const describeParts = (size: WorkerSize) => size.parts.map(([where, bytes]) => `${where} ${kb(bytes)}`).join(', ');

describe('the Worker bundle', () => {
  it('is under the budget for the help-desk Worker', async () => {
    const size = await measureWorker('examples/cloudflare/worker.ts');
    // Parley's z leaves zod's JSON Schema reader out of an edge bundle (model/zod-parts-edge.ts): a namespace is not shaken.
    expect(size.files).not.toContain('node_modules/zod/v4/classic/from-json-schema.js');
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
    // (nor the inbox's router: protocol/router.ts).
    for (const size of [core, withHttp]) {
      expect(where(size)).not.toContain('hono');
      expect(size.files).not.toContain('src/protocol/router.ts');
      expect(size.files).toContain('src/app/questions.ts');
      for (const file of INBOX_FILES) expect(size.files).not.toContain(`src/inbox/${file}`);
      // Tasks come in only where the entry calls enableTasks(): their store and runs stay out.
      for (const file of TASK_FILES) expect(size.files).not.toContain(`src/engine/${file}`);
    }
  });

  it('leaves out the Durable Objects store unless the entry asks for it, and carries it where it does', async () => {
    const [core, withTasks, withObjects] = await Promise.all([
      measureWorker('examples/cloudflare/worker.ts'),
      measureWorker('examples/cloudflare/worker-tasks.ts'),
      measureWorker('examples/cloudflare/worker-durable-objects.ts'),
    ]);
    for (const size of [core, withTasks]) for (const file of DURABLE_FILES) expect(size.files).not.toContain(file);
    for (const file of DURABLE_FILES) expect(withObjects.files).toContain(file);
    // Durable Objects in place of Redis over HTTP: no @upstash/redis, and under a budget of its own.
    expect(withObjects.parts.map(([where]) => where)).not.toContain('@upstash/redis');
    expect(
      withObjects.gzip,
      `${kb(withObjects.gzip)} gzip is over ${kb(DURABLE_OBJECTS_WORKER_BUDGET_BYTES)}; minified: ${describeParts(withObjects)}`,
    ).toBeLessThan(DURABLE_OBJECTS_WORKER_BUDGET_BYTES);
  });

  it('carries tasks where the entry calls enableTasks(), under a budget of its own', async () => {
    const size = await measureWorker('examples/cloudflare/worker-tasks.ts');
    for (const file of TASK_FILES) expect(size.files).toContain(`src/engine/${file}`);
    expect(size.gzip, `${kb(size.gzip)} gzip is over ${kb(TASK_WORKER_BUDGET_BYTES)}; minified: ${describeParts(size)}`).toBeLessThan(
      TASK_WORKER_BUDGET_BYTES,
    );
  });

  it('carries persistent questions and the inbox where the entry calls enableInbox(), under a budget of its own', async () => {
    const [withObjects, full] = await Promise.all([
      measureWorker('examples/cloudflare/worker-durable-objects.ts'),
      measureWorker('examples/cloudflare/worker-inbox.ts'),
    ]);
    // A Worker with Durable Objects and tasks but no enableInbox() carries none of it, nor the inbox's router.
    expect(withObjects.files).not.toContain('src/protocol/router.ts');
    for (const file of ['service.ts', 'routes.ts', 'question-store.ts', 'delivery.ts', 'codec.ts']) {
      expect(withObjects.files).not.toContain(`src/inbox/${file}`);
      expect(full.files).toContain(`src/inbox/${file}`);
    }
    expect(full.files).toContain('src/elicitation/unanswered.ts');
    expect(full.files).not.toContain('src/inbox/home-file.ts'); // the default question file (node:fs) stays Node's
    // Its people sign in with codes: OpenID Connect's routes and code exchange come in with enableOidcSignIn() only.
    expect(full.files).not.toContain('src/auth/oidc-sign-in.ts');
    // The inbox's few routes are on Parley's own router (protocol/router.ts): no hono in any Worker.
    expect(full.parts.map(([where]) => where)).not.toContain('hono');
    expect(full.files).toContain('src/protocol/router.ts');
    expect(full.gzip, `${kb(full.gzip)} gzip is over ${kb(INBOX_WORKER_BUDGET_BYTES)}; minified: ${describeParts(full)}`).toBeLessThan(
      INBOX_WORKER_BUDGET_BYTES,
    );
  });
});
