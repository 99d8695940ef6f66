// The Workers' bundles and cold starts (issue #47, item 5): each Worker bundled as wrangler builds it (minified, esbuild,
// test/helpers/bundle.ts), its gzip size, and its cold start in workerd through miniflare: a new workerd process per
// start, timed from `new Miniflare()` to ready (workerd up, the module loaded and evaluated) and then to the answer of a
// first tools/list (where Parley builds its server and opens its store). Every Worker is started once per round, in
// turn, so all see the same machine; the table gives medians. "Isolate" is the Worker's own part: its ready time beyond
// a trivial Worker's (workerd alone) plus its first request. Wall-clock times move with the machine's load; the CPU
// time workerd used up to the first response (from /proc, in 10 ms ticks) moves far less, so both are given.
//   npx tsx --conditions=parley-source bench/cold-start.ts [runs]      (default 9 rounds; needs redis-server)
import { Miniflare } from 'miniflare';
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { bundleWorker } from '../test/helpers/bundle';
import { startRedis } from '../test/helpers/redis';
import { startUpstashServer } from '../test/helpers/upstash-server';
import { childrenOf, cpuSeconds } from './lib/cpu';
import { median } from './lib/measure';
import { modernRequest } from './lib/wire';

const RUNS = Number(process.argv[2] ?? 9);
const VAULT = { VAULT_SECRET: 'bench-vault-secret-0123456789abcdef' };
const TRIVIAL = `export default { fetch: () => Response.json({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', tools: [] } }) };`;

interface Contender {
  name: string;
  /** A Worker entry to bundle, or the code itself. */
  entry?: string;
  code?: string;
  bindings?: Record<string, string>;
  durableObjects?: boolean;
  script?: string;
}

interface Start {
  ready: number;
  first: number;
  /** CPU time (user + system, 10 ms ticks) of the workerd process this start made, up to the first response, ms. */
  cpu: number;
}

/** The workerd processes this process started (Miniflare spawns workerd as its child). */
const workerds = () => new Set(childrenOf(process.pid).filter((pid) => cpuSeconds(pid) >= 0 && commOf(pid) === 'workerd'));
const commOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};

async function coldStart(script: string, contender: Contender): Promise<Start> {
  const before = workerds();
  const t0 = performance.now();
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2026-04-01',
    compatibilityFlags: ['nodejs_compat'],
    cf: false,
    host: '127.0.0.1',
    port: 0,
    bindings: contender.bindings ?? {},
    // The Workers' log lines (an INFO about the store) are read and dropped: not the table's.
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => void (stdout.resume(), stderr.resume()),
    ...(contender.durableObjects ? { durableObjects: { PARLEY_STORE: { className: 'ParleyStore', useSQLite: true } } } : {}),
  });
  try {
    const url = await mf.ready;
    const t1 = performance.now();
    const request = modernRequest('tools/list');
    const response = await fetch(new URL('/mcp', url), { method: 'POST', headers: request.headers, body: request.body });
    const body = await response.text();
    const t2 = performance.now();
    if (response.status !== 200 || !body.includes('"tools"'))
      throw new Error(`${contender.name}: ${response.status} ${body.slice(0, 300)}`);
    const cpu = [...workerds()].filter((pid) => !before.has(pid)).reduce((sum, pid) => sum + cpuSeconds(pid), 0) * 1000;
    return { ready: t1 - t0, first: t2 - t1, cpu };
  } finally {
    await mf.dispose();
  }
}

const redis = await startRedis();
const upstash = await startUpstashServer(redis.url);
try {
  const contenders: Contender[] = [
    { name: 'workerd alone (a trivial Worker)', code: TRIVIAL },
    { name: 'bare Hono + zod (bench/servers/hono-zod-worker.ts)', entry: 'bench/servers/hono-zod-worker.ts' },
    { name: 'help desk (examples/cloudflare/worker.ts)', entry: 'examples/cloudflare/worker.ts', bindings: VAULT },
    {
      name: 'help desk + tasks, Redis over HTTP (worker-tasks.ts)',
      entry: 'examples/cloudflare/worker-tasks.ts',
      bindings: { ...VAULT, UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token },
    },
    {
      name: 'help desk + tasks, Durable Objects (worker-durable-objects.ts)',
      entry: 'examples/cloudflare/worker-durable-objects.ts',
      bindings: VAULT,
      durableObjects: true,
    },
    {
      name: 'help desk + tasks + inbox, Durable Objects (worker-inbox.ts)',
      entry: 'examples/cloudflare/worker-inbox.ts',
      bindings: VAULT,
      durableObjects: true,
    },
    { name: '`parley init --worker` (templates/worker)', entry: 'templates/worker/src/worker.ts', bindings: VAULT, durableObjects: true },
  ];
  for (const contender of contenders) contender.script = contender.code ?? (await bundleWorker(contender.entry!, { minify: true })).code;
  const starts = new Map<Contender, Start[]>(contenders.map((c) => [c, []]));
  for (let round = 0; round < RUNS; round++) for (const c of contenders) starts.get(c)!.push(await coldStart(c.script!, c));

  const ms = (n: number) => n.toFixed(1);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const alone = median(starts.get(contenders[0]!)!.map((s) => s.ready));
  const aloneCpu = median(starts.get(contenders[0]!)!.map((s) => s.cpu));
  console.log(
    `Cold starts in workerd (miniflare ${(await import('miniflare/package.json', { with: { type: 'json' } })).default.version}), medians of ${RUNS}, ms\n`,
  );
  console.log(
    `load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(', ')} at the end\n`,
  );
  console.log(
    '| Worker | gzip | ready | first tools/list | to first response | isolate (ready − workerd alone + first) | workerd CPU to first response | isolate CPU (− workerd alone) |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const c of contenders) {
    const list = starts.get(c)!;
    const ready = median(list.map((s) => s.ready));
    const first = median(list.map((s) => s.first));
    const total = median(list.map((s) => s.ready + s.first));
    const gzip = c.code ? '–' : kb(gzipSync(c.script!).length);
    const cpu = median(list.map((s) => s.cpu));
    const own = (n: number) => (c.code ? '–' : ms(n));
    console.log(
      `| ${c.name} | ${gzip} | ${ms(ready)} | ${ms(first)} | ${ms(total)} | ${own(ready - alone + first)} | ${ms(cpu)} | ${own(cpu - aloneCpu)} |`,
    );
  }
} finally {
  await upstash.close();
  await redis.stop();
}
