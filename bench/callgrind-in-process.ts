// npx tsx bench/callgrind-in-process.ts [scenario] [few] [many]: instructions per cycle of the scenario straight into the
// fetch handler (parley-mcp/node's platform, 32 at a time) under valgrind's callgrind. No sockets and no batching of
// answers by turn, so of the counts it moves least between runs: the A/B for a change inside Parley. Bundled with esbuild
// first, as bench/callgrind.ts's servers are; a few minutes.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const [scenario = 'simpleCall', few = '3200', many = '9600'] = process.argv.slice(2);
// --single-threaded: V8's compiler and collector threads otherwise move one build's count by up to 40% between runs
// (their work lands at different times); on the main thread it repeats within ~1%. CALLGRIND_NODE_FLAGS overrides.
const NODE_FLAGS = (process.env.CALLGRIND_NODE_FLAGS ?? '--single-threaded').split(' ').filter(Boolean);
const driver = `/tmp/parley-cycles-${process.pid}.mjs`;
await build({
  entryPoints: [new URL('lib/cycles.ts', import.meta.url).pathname],
  outfile: driver,
  bundle: true,
  platform: 'node',
  conditions: ['parley-source'],
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

function instructions(cycles: string): number {
  const out = `/tmp/parley-cycles-${process.pid}-${cycles}.out`;
  execFileSync(
    'valgrind',
    ['--tool=callgrind', `--callgrind-out-file=${out}`, '--smc-check=all', process.execPath, ...NODE_FLAGS, driver, scenario, cycles],
    {
      stdio: 'ignore',
    },
  );
  const total = Number(/^(?:summary|totals): (\d+)$/m.exec(readFileSync(out, 'utf8'))?.[1]);
  rmSync(out, { force: true });
  return total;
}

const [a, b] = [instructions(few), instructions(many)];
rmSync(driver, { force: true });
console.log(`${scenario}: ${Math.round((b - a) / (Number(many) - Number(few))).toLocaleString('en-US')} instructions per cycle in-process`);
