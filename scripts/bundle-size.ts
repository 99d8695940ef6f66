// npm run size: the Worker bundles' sizes, minified and gzipped, and what each package adds. test/bundle enforces the goals.
import {
  DURABLE_OBJECTS_WORKER_BUDGET_BYTES,
  INBOX_WORKER_BUDGET_BYTES,
  measureWorker,
  TASK_WORKER_BUDGET_BYTES,
  WORKER_BUDGET_BYTES,
} from '../test/helpers/bundle';

const WORKERS = [
  { name: 'help-desk Worker (examples/cloudflare/worker.ts)', entry: 'examples/cloudflare/worker.ts', budget: WORKER_BUDGET_BYTES },
  {
    name: 'with Redis over HTTP (examples/cloudflare/worker-redis-http.ts)',
    entry: 'examples/cloudflare/worker-redis-http.ts',
    budget: undefined, // the Worker above plus @upstash/redis, which its entry asks for
  },
  {
    name: 'with Redis over HTTP and tasks (examples/cloudflare/worker-tasks.ts)',
    entry: 'examples/cloudflare/worker-tasks.ts',
    budget: TASK_WORKER_BUDGET_BYTES,
  },
  {
    name: 'with Durable Objects and tasks (examples/cloudflare/worker-durable-objects.ts)',
    entry: 'examples/cloudflare/worker-durable-objects.ts',
    budget: DURABLE_OBJECTS_WORKER_BUDGET_BYTES, // tasks with their store in Durable Objects in place of Redis over HTTP
  },
  {
    name: 'with Durable Objects, tasks and the inbox (examples/cloudflare/worker-inbox.ts)',
    entry: 'examples/cloudflare/worker-inbox.ts',
    budget: INBOX_WORKER_BUDGET_BYTES, // the Worker above with persistent questions, the inbox and the unanswered policy
  },
];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

for (const { name, entry, budget } of WORKERS) {
  const { gzip, minified, parts } = await measureWorker(entry);
  const goal =
    budget === undefined
      ? ' (no goal of its own: the help-desk Worker plus what its entry asks for)'
      : ` (goal: under ${budget / 1024} KB gzip: ${gzip < budget ? 'met' : 'MISSED'})`;
  console.log(`${name}: ${kb(gzip)} gzip, ${kb(minified)} minified${goal}`);
  for (const [where, bytes] of parts.filter(([, b]) => b >= 512)) console.log(`  ${where.padEnd(32)} ${kb(bytes).padStart(9)} minified`);
}
