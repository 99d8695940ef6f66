// Instructions per cycle of a scenario straight into the fetch handler (bench/lib/cycles.ts, parley-mcp/node's
// platform) under valgrind's callgrind: the count bench/callgrind-in-process.ts prints and npm run bench:check gates.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';

/**
 * Node's flags under callgrind, chosen so that one build's count repeats (CALLGRIND_NODE_FLAGS overrides):
 * - `--single-threaded`: V8's compiler and collector threads otherwise move the count by up to 40% between runs
 *   (their work lands at different times);
 * - `--predictable-gc-schedule`: fixed young-generation size and heap growth, no memory reducer: V8 otherwise sizes
 *   the heap and paces incremental marking by the clock, so a busier machine (and valgrind's own slowness) changed
 *   how many collections a run made, and the count moved with the machine's load;
 * - `--no-incremental-marking`: a full collection in the counted cycles (the task scenario's heap grows) marks all at
 *   once, where incremental marking sizes its steps by the milliseconds elapsed: the task cycle moved by 5% without it;
 * - `--expose-gc`: a task scenario's driver collects fully after its warm-up and warms up again (cycles.ts), so its
 *   counted cycles start from the same heap whatever start-up allocated: without it the task cycle moved by up to 24%
 *   with the size of the bundle alone (a branch adding inbox modules that nothing on its path runs), as a full
 *   collection fell inside the counted cycles or outside them;
 * - `--hash-seed`, `--random-seed`: a fixed seed, where each run otherwise draws its own and with it other hash-table
 *   probes and rehashes (~0.1% of a short run).
 */
/** valgrind's path, found on PATH once: it runs with no environment (perCycle). */
const VALGRIND = execFileSync('sh', ['-c', 'command -v valgrind || echo valgrind'], { encoding: 'utf8' }).trim();

/** Removes what buildDriver wrote. */
export const removeDriver = (driver: string) => rmSync(dirname(driver), { recursive: true, force: true });

export const NODE_FLAGS = (
  process.env.CALLGRIND_NODE_FLAGS ??
  '--expose-gc --single-threaded --predictable-gc-schedule --no-incremental-marking --hash-seed=1 --random-seed=1'
)
  .split(' ')
  .filter(Boolean);

/** Bundles the driver with esbuild, as bench/callgrind.ts's servers are: its path, to remove when done. */
export async function buildDriver(): Promise<string> {
  // A path of the same length every time (the process id's is not): the script's URL is a string the run keeps.
  const driver = join(mkdtempSync('/tmp/parley-cycles-'), 'cycles.mjs');
  await build({
    entryPoints: [new URL('cycles.ts', import.meta.url).pathname],
    outfile: driver,
    bundle: true,
    platform: 'node',
    conditions: ['parley-source'],
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  return driver;
}

/** How many cycles to run before counting (V8 has compiled the hot path with its optimizing tier by then), and to count. */
export interface Counted {
  warmUp: number;
  cycles: number;
}

/**
 * Instructions per cycle of `cycles` cycles after `warmUp` others, in one run: the driver calls os.getPriority() before
 * and after the counted cycles, and callgrind writes its counts out at each (--dump-before), so the second part holds
 * those cycles alone, without start-up, warm-up or shutdown.
 */
export async function perCycle(driver: string, scenario: string, { warmUp, cycles }: Counted): Promise<number> {
  const out = `/tmp/parley-cycles-${process.pid}-${scenario}-${Math.random().toString(36).slice(2)}.out`;
  const parts = [out, `${out}.1`, `${out}.2`, `${out}.3`];
  try {
    // Node's JIT writes code at run time, outside any file: callgrind must check for it.
    const valgrind = ['--tool=callgrind', `--callgrind-out-file=${out}`, '--dump-before=uv_os_getpriority', '--smc-check=all-non-file'];
    const node = [...NODE_FLAGS, driver, scenario, String(cycles), String(warmUp)];
    // No environment at all: its size is start-up allocation too, and npm's variables (npm run) moved a full
    // collection of the task cycle into the counted cycles (−18% against the same build run with npx).
    const { stdout } = await promisify(execFile)(VALGRIND, [...valgrind, process.execPath, ...node], {
      maxBuffer: 16 * 1024 * 1024,
      env: {},
    });
    // What the driver counted (a task scenario's tasks/get): a count moved by more polls shows as such.
    if (stdout.trim()) console.error(`${scenario}: ${stdout.trim()}`);
    const total = Number(/^(?:summary|totals): (\d+)$/m.exec(readFileSync(`${out}.2`, 'utf8'))?.[1]);
    if (!Number.isFinite(total) || total <= 0) throw new Error(`${scenario}: callgrind wrote no total for the counted cycles`);
    return Math.round(total / cycles);
  } finally {
    for (const part of parts) rmSync(part, { force: true });
  }
}
