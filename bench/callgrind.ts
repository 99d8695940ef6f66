// npx tsx --conditions=parley-source bench/callgrind.ts [scenario] [servers...]: instructions per cycle under valgrind's
// callgrind, a count that other work on the machine does not move. Each server runs twice under callgrind, for a few and
// for many cycles; the difference over the extra cycles leaves start-up and shutdown out. Slow (valgrind runs Node ~50×
// slower): a few minutes per server. Example: bench/callgrind.ts simpleCall parley node-http
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { runLoad } from './lib/load';
import { startServer } from './lib/processes';
import * as scenarios from './scenarios';

const [scenario = 'simpleCall', ...names] = process.argv.slice(2);
const make = scenarios[scenario as keyof typeof scenarios];
// Enough cycles that V8 has compiled the hot path with its optimizing tier before the counted part: the difference of
// the two runs still holds what compiling and collecting cost per cycle, as a real server pays it.
// As in bench/callgrind-in-process.ts: V8's work on the main thread, so that one build's count repeats.
const NODE_FLAGS = (process.env.CALLGRIND_NODE_FLAGS ?? '--single-threaded').split(' ').filter(Boolean);
const [FEW, MANY] = [Number(process.env.FEW ?? 3000), Number(process.env.MANY ?? 9000)];

async function instructions(name: string, cycles: number): Promise<number> {
  const out = `/tmp/parley-callgrind-${name}-${cycles}-${process.pid}.out`; // two runs side by side do not share a file
  rmSync(out, { force: true });
  // Node's JIT writes code at run time: callgrind must check for it. Everything is counted, start-up included.
  const server = await startServer(name, {
    runtime: ['valgrind', '--tool=callgrind', `--callgrind-out-file=${out}`, '--smc-check=all', process.execPath, ...NODE_FLAGS],
    env: { MCP_SESSION_SECRET: 'bench-session-secret-0123456789abcdef' },
    startTimeout: 600,
  });
  try {
    const steps = make().steps.length;
    const run = await runLoad(server.url, make(), { connections: 4, amount: cycles * steps });
    if (!run.valid) throw new Error(`${name}: invalid run (${run.bad} bad bodies)`);
  } finally {
    // The server exits on SIGTERM; callgrind then writes its counts, which under valgrind takes longer than stop() waits.
    process.kill(server.pid, 'SIGTERM');
    for (let i = 0; i < 120 && !existsSync(out); i++) await new Promise((resolve) => setTimeout(resolve, 500));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await server.stop();
  }
  const text = readFileSync(out, 'utf8');
  const summary = /^summary: (\d+)$/m.exec(text)?.[1] ?? /^totals: (\d+)$/m.exec(text)?.[1];
  if (!summary) throw new Error(`${name}: no summary in ${out}`);
  return Number(summary);
}

for (const name of names.length ? names : ['parley', 'node-http']) {
  const few = await instructions(name, FEW);
  const many = await instructions(name, MANY);
  console.log(
    `${name} ${scenario}: ${Math.round((many - few) / (MANY - FEW)).toLocaleString('en-US')} instructions per cycle (${few.toLocaleString('en-US')} for ${FEW} cycles, ${many.toLocaleString('en-US')} for ${MANY})`,
  );
}
