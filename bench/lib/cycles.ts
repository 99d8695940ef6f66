// The driver bench/lib/callgrind-count.ts bundles: `node cycles.mjs <scenario> <count> [warm-up]`, cycles of a scenario
// straight into the fetch handler, 32 at a time, with parley-mcp/node's platform. With a warm-up, its cycles run first,
// then the counted ones between two calls of os.getPriority(), where callgrind (--dump-before=uv_os_getpriority) writes
// its counts out and starts again: the second part is those cycles alone.
import { getPriority } from 'node:os';
import { createFetchHandler } from 'parley-mcp';
import { NODE_PLATFORM } from '../../src/adapters/node-platform';
import { benchConfig } from '../servers/parley-app';
import { cycle, requestKind, type ScenarioName, taskPolls } from './in-process-cycle';

// `<scenario>@node`: the same cycles through parley-mcp/node's light request (in-process-cycle.ts, requestKind).
const [name, via] = process.argv[2]!.split('@') as [ScenarioName, string | undefined];
if (via === 'node') requestKind.via = 'node';
const count = Number(process.argv[3]);
const warmUp = Number(process.argv[4] ?? 0);
// The task tools (and THREE_TOOL), as rows 10 to 13's servers serve them.
if (name === 'taskCycle' || name === 'taskThreeReplays' || name === 'roundThree') process.env.BENCH_TASKS = '1';
const handler = createFetchHandler(benchConfig(), NODE_PLATFORM);
// A task lives until its tasks/get, and while it lives its timers tick by the clock (src/engine/tasks/task-work.ts): tasks
// run one at a time, so each lives as short a time as it can and the count does not move with how long 32 of them took.
const atOnce = name === 'taskCycle' || name === 'taskThreeReplays' ? 1 : 32;
const run = async (cycles: number) => {
  for (let done = 0; done < cycles; done += atOnce) await Promise.all(Array.from({ length: atOnce }, () => cycle(handler, name)));
};
if (warmUp > 0) {
  await run(warmUp);
  // A task scenario's count is mostly its heap's: a full collection, then a quarter of the warm-up again (the collection
  // drops optimized code the cycles need back), outside the counted cycles; callgrind-count.ts passes --expose-gc (see
  // NODE_FLAGS there). Not for the call scenarios: their heap stays small, and the code dropped came back only slowly.
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc && atOnce === 1) {
    gc();
    await run(Math.ceil(warmUp / 4));
  }
  getPriority();
}
await run(count);
if (warmUp > 0) getPriority();
if (name === 'taskCycle' || name === 'taskThreeReplays') console.log(`tasks/get: ${taskPolls.n}`);
