// npm run size: the Worker bundles' sizes, minified and gzipped, and what each package adds. test/bundle enforces the goal.
import { measureWorker, WORKER_BUDGET_BYTES } from '../test/helpers/bundle';

const WORKERS = [
  { name: 'help-desk Worker (examples/cloudflare/worker.ts)', entry: 'examples/cloudflare/worker.ts', budget: true },
  {
    name: 'with Redis over HTTP (examples/cloudflare/worker-redis-http.ts)',
    entry: 'examples/cloudflare/worker-redis-http.ts',
    budget: false,
  },
];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

for (const { name, entry, budget } of WORKERS) {
  const { gzip, minified, parts } = await measureWorker(entry);
  const goal = budget
    ? ` (goal: under ${WORKER_BUDGET_BYTES / 1024} KB gzip: ${gzip < WORKER_BUDGET_BYTES ? 'met' : 'MISSED'})`
    : ' (no goal of its own: the Worker above plus @upstash/redis, which its entry asks for)';
  console.log(`${name}: ${kb(gzip)} gzip, ${kb(minified)} minified${goal}`);
  for (const [where, bytes] of parts.filter(([, b]) => b >= 512)) console.log(`  ${where.padEnd(32)} ${kb(bytes).padStart(9)} minified`);
}
