// The CPU one Durable Objects store operation costs the workerd process, apart by kind: a get or set on an object that
// exists, a set that makes a new SQLite-backed object, and a stub alone; each through stub.fetch() (ParleyStore as the
// store ships it) and through RPC (RpcStore, the same SQLite statements). One miniflare workerd process; each cell is
// one request that runs N operations, timed by workerd's CPU from /proc (10 ms ticks, hence N in the hundreds).
//   npx tsx --conditions=parley-source bench/durable-ops.ts [n] [repeats] [parallel]
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { readFileSync } from 'node:fs';
import { childrenOf, cpuSeconds, disturbanceMeter } from './lib/cpu';

const [n = 1000, repeats = 3, parallel = 1] = process.argv.slice(2).map(Number);
const MODES = [
  'fetch-stub',
  'fetch-get',
  'rpc-get',
  'fetch-set',
  'rpc-set',
  'fetch-new',
  'rpc-new',
  'fetch-getnew',
  'rpc-getnew',
  'bare-getnew',
  'fetch-cycle',
  'rpc-cycle',
  'rpc-clear',
  'rpc-newwipe',
];
/** Reads are cheap: ten times the operations, for as fine a CPU figure. */
const count = (mode: string) => (mode.endsWith('-get') || mode.endsWith('-stub') ? n * 10 : n);

/** Seconds of system (kernel) CPU the process has used: files and fsync, where user time is JavaScript and SQLite. */
const systemSeconds = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[12]) / 100;
};

const isWorkerd = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'workerd';
  } catch {
    return false;
  }
};

const bundled = await build({
  entryPoints: ['bench/servers/durable-ops-worker.ts'],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  conditions: ['parley-source', 'workerd', 'worker', 'browser'],
  mainFields: ['module', 'main'],
  target: 'es2022',
  external: ['cloudflare:workers'],
  write: false,
  logLevel: 'silent',
});
const before = new Set(childrenOf(process.pid).filter(isWorkerd));
const mf = new Miniflare({
  modules: true,
  script: bundled.outputFiles[0]!.text,
  compatibilityDate: '2026-04-01',
  compatibilityFlags: ['nodejs_compat'],
  durableObjects: {
    FETCH_STORE: { className: 'ParleyStore', useSQLite: true },
    RPC_STORE: { className: 'RpcStore', useSQLite: true },
    BARE: { className: 'BareObject', useSQLite: true },
  },
  cf: false,
});
try {
  await mf.ready;
  const [pid] = childrenOf(process.pid).filter((p) => isWorkerd(p) && !before.has(p));
  if (pid === undefined) throw new Error('no workerd process');
  let runs = 0;
  const cell = async (mode: string, count: number) => {
    const query = new URLSearchParams({ mode, n: String(count), parallel: String(parallel), run: String(runs++) });
    const [cpu0, sys0, t0] = [cpuSeconds(pid), systemSeconds(pid), performance.now()];
    const response = await mf.dispatchFetch(`http://ops.test/?${query}`);
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${mode}: HTTP ${response.status} ${body}`);
    return {
      cpuUs: ((cpuSeconds(pid) - cpu0) * 1e6) / count,
      sysUs: ((systemSeconds(pid) - sys0) * 1e6) / count,
      wallUs: ((performance.now() - t0) * 1000) / count,
    };
  };
  for (const mode of ['fetch-set', 'rpc-set', ...MODES]) await cell(mode, Math.max(50, n / 10)); // warm-up; sets first
  const disturbance = disturbanceMeter();
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rows: string[] = [];
  for (const mode of MODES) {
    const cells = [];
    for (let r = 0; r < repeats; r++) cells.push(await cell(mode, count(mode)));
    const cpu = median(cells.map((c) => c.cpuUs));
    const wall = median(cells.map((c) => c.wallUs));
    const sys = median(cells.map((c) => c.sysUs));
    rows.push(
      `| ${mode} | ${cpu.toFixed(0)} | ${sys.toFixed(0)} | ${wall.toFixed(0)} | ${cells.map((c) => c.cpuUs.toFixed(0)).join(' · ')} |`,
    );
  }
  const { otherCores, load } = disturbance();
  console.log(`n=${n} repeats=${repeats} parallel=${parallel}; other work ${otherCores.toFixed(2)} cores, load ${load.toFixed(1)}`);
  console.log('| operation | workerd CPU µs/op (median) | of which system | wall µs/op | CPU per repeat |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  await mf.dispose();
}
