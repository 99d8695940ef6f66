// npx tsx bench/in-process.ts [scenario] [concurrency] [--ab]: a scenario's requests straight into the fetch handler, no
// HTTP: Parley's own CPU per cycle, for quick A/B runs of a change (the full table is npm run bench). `--ab` runs the
// scenario on a server sealing requestState and one signing it, alternately in this one process, so a busy machine
// weighs on both alike. The handlers get parley-mcp/node's platform (plain answers, node:crypto for requestState, its end of
// turn), as serve() passes it; `--web` leaves it out, for the Web APIs' path (Fetch Responses, WebCrypto) a Worker takes.
import { createFetchHandler } from 'parley-mcp';
import { NODE_PLATFORM } from '../src/adapters/node-platform';
import { cycle, type ScenarioName } from './lib/in-process-cycle';
import { benchConfig } from './servers/parley-app';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const ab = process.argv.includes('--ab');
const platform = process.argv.includes('--web') ? {} : NODE_PLATFORM;
const name = (args[0] ?? 'simpleCall') as ScenarioName;
const concurrency = Number(args[1] ?? 32);
const handlers = ab
  ? {
      sealed: createFetchHandler(benchConfig(undefined, 'sealed'), platform),
      signed: createFetchHandler(benchConfig(undefined, 'signed'), platform),
    }
  : { default: createFetchHandler(benchConfig(), platform) };
for (const count of ab ? [10_000, 30_000, 30_000, 30_000] : [20_000, 50_000, 50_000]) {
  for (const [label, handler] of Object.entries(handlers)) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let done = 0; done < count; done += concurrency)
      await Promise.all(Array.from({ length: concurrency }, () => cycle(handler, name)));
    const used = process.cpuUsage(cpu);
    const tag = label === 'default' ? name : `${name} (${label})`;
    console.log(
      `${tag}: ${count} cycles, ${((used.user + used.system) / count).toFixed(1)} µs CPU and ${(((performance.now() - started) * 1000) / count).toFixed(1)} µs wall each`,
    );
  }
}
