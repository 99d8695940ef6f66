// npm run bench:check [-- --update] [--runs N] [scenario...]: the regression gate CI runs (.ci/run, through npm test).
// Each scenario's instructions per cycle in-process under callgrind (bench/lib/callgrind-count.ts), against the
// baseline in bench/baselines.json: more than 3% over fails, and says by how much; more than 3% under passes and says
// the baseline can come down. Instructions, never time: the counts repeat on a busy machine. `--update` writes what
// it measured as the new baselines (a baseline moves only in a commit that says what moved it: bench/README.md).
// `--runs N` measures each scenario N times and prints the spread, to check that the counts repeat; the least counts.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { buildDriver, type Counted, perCycle, removeDriver } from './lib/callgrind-count';

interface Baseline extends Counted {
  instructions: number;
}
interface Baselines {
  node: number;
  scenarios: Record<string, Baseline>;
}

const FILE = new URL('baselines.json', import.meta.url);
const TOLERANCE = 0.03;
const args = process.argv.slice(2);
const update = args.includes('--update');
const runsAt = args.indexOf('--runs');
const runs = runsAt === -1 ? 1 : Number(args[runsAt + 1]);
const named = args.filter((a, i) => !a.startsWith('--') && (runsAt === -1 || i !== runsAt + 1));

const baselines = JSON.parse(readFileSync(FILE, 'utf8')) as Baselines;
const node = Number(process.versions.node.split('.')[0]);
if (node !== baselines.node && !update) {
  // V8 changes between Node's majors move every count: the baselines are one major's.
  console.error(`bench:check: the baselines are Node ${baselines.node}'s, this is Node ${node}: run it on Node ${baselines.node}`);
  process.exit(1);
}
const scenarios = named.length ? named : Object.keys(baselines.scenarios);
const unknown = scenarios.filter((name) => !baselines.scenarios[name]);
if (unknown.length) throw new Error(`bench:check: no baseline for ${unknown.join(', ')} in bench/baselines.json`);

/** Runs the jobs at most `width` at a time (each callgrind run takes one core): their results in order. */
async function pooled<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const at = next++;
      results[at] = await jobs[at]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return results;
}

if (spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status !== 0) {
  console.error('bench:check: valgrind is not installed (node scripts/system-deps.mjs installs it, or apt-get install valgrind)');
  process.exit(1);
}
const started = Date.now();
const driver = await buildDriver();
const counts = new Map<string, number[]>();
try {
  const jobs = scenarios.flatMap((name) =>
    Array.from({ length: runs }, () => async () => {
      const count = await perCycle(driver, name, baselines.scenarios[name]!);
      counts.set(name, [...(counts.get(name) ?? []), count]);
    }),
  );
  await pooled(jobs, availableParallelism());
  // Noise only adds instructions (a JIT tier reached later, a collection in the window): taskCycle's single counts of
  // one tree fall in two modes ~4% apart. A count over the tolerance is measured twice more and the least stands; a
  // real regression is over in each.
  for (const name of scenarios)
    for (let again = 0; again < 2 && Math.min(...counts.get(name)!) > baselines.scenarios[name]!.instructions * (1 + TOLERANCE); again++) {
      console.log(`${name}: over the baseline: measured again`);
      counts.get(name)!.push(await perCycle(driver, name, baselines.scenarios[name]!));
    }
} finally {
  removeDriver(driver);
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}%`;
const over: string[] = [];
for (const name of scenarios) {
  const measured = counts.get(name)!;
  const count = Math.min(...measured);
  const baseline = baselines.scenarios[name]!;
  const change = count / baseline.instructions - 1;
  const spread =
    measured.length > 1 ? `, spread ${pct((Math.max(...measured) - Math.min(...measured)) / count)} over ${measured.join(', ')}` : '';
  let verdict = 'ok';
  if (change > TOLERANCE) {
    verdict = `FAIL: ${pct(change)} over the baseline, more than ${TOLERANCE * 100}%`;
    over.push(name);
  } else if (change < -TOLERANCE)
    verdict = `ok, ${pct(change)} under the baseline: lower it (npm run bench:check -- --update) in a commit that says what moved it`;
  console.log(
    `${name}: ${count.toLocaleString('en-US')} instructions per cycle, baseline ${baseline.instructions.toLocaleString('en-US')} (${pct(change)}${spread}): ${verdict}`,
  );
  if (update) baseline.instructions = count;
}
console.log(`bench:check: ${scenarios.length} scenarios in ${Math.round((Date.now() - started) / 1000)} s (instructions, not time)`);
if (update) {
  baselines.node = node;
  writeFileSync(FILE, `${JSON.stringify(baselines, null, 2)}\n`);
  console.log('bench:check: bench/baselines.json updated: commit it saying what moved each count');
} else if (over.length) {
  console.error(
    `bench:check: ${over.join(', ')} over the baseline by more than ${TOLERANCE * 100}%: find what costs more (bench/README.md, "The regression gate")`,
  );
  process.exit(1);
}
