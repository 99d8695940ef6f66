// npx tsx --conditions=parley-source bench/callgrind-in-process.ts [scenario] [cycles] [warm-up]: instructions per cycle of the
// scenario straight into the fetch handler (parley-mcp/node's platform, 32 at a time) under valgrind's callgrind. No
// sockets and no batching of answers by turn, so of the counts it moves least between runs: the A/B for a change inside
// Parley. Bundled with esbuild first, as bench/callgrind.ts's servers are; Node's flags in bench/lib/callgrind-count.ts.
// Only the cycles after the warm-up are counted (the default: 1,000 after 6,000, when V8 has optimized the hot path).
// Scenarios: those of bench/scenarios.ts, and taskCycle (a no-input task created, then tasks/get until completed).
import { buildDriver, perCycle, removeDriver } from './lib/callgrind-count';

const [scenario = 'simpleCall', cycles = '1000', warmUp = '6000'] = process.argv.slice(2);
const driver = await buildDriver();
try {
  const count = await perCycle(driver, scenario, { warmUp: Number(warmUp), cycles: Number(cycles) });
  console.log(`${scenario}: ${count.toLocaleString('en-US')} instructions per cycle in-process`);
} finally {
  removeDriver(driver);
}
