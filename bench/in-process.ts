// npx tsx bench/in-process.ts [scenario] [concurrency] [--ab]: a scenario's requests straight into the fetch handler, no
// HTTP: Parley's own CPU per cycle, for quick A/B runs of a change (the full table is npm run bench). `--ab` runs the
// scenario on a server sealing requestState and one signing it, alternately in this one process, so a busy machine
// weighs on both alike. The handlers get parley-mcp/node's platform (plain answers, node:crypto for requestState, its end of
// turn), as serve() passes it; `--web` leaves it out, for the Web APIs' path (Fetch Responses, WebCrypto) a Worker takes.
import { createFetchHandler } from 'parley-mcp';
import { PlainResponse } from '../src/adapters/node-response';
import { NODE_PLATFORM } from '../src/adapters/node-platform';
import * as scenarios from './scenarios';
import { benchConfig } from './servers/parley-app';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const ab = process.argv.includes('--ab');
const platform = process.argv.includes('--web') ? {} : NODE_PLATFORM;
const name = (args[0] ?? 'simpleCall') as keyof typeof scenarios;
const concurrency = Number(args[1] ?? 32);
const handlers = ab
  ? {
      sealed: createFetchHandler(benchConfig(undefined, 'sealed'), platform),
      signed: createFetchHandler(benchConfig(undefined, 'signed'), platform),
    }
  : { default: createFetchHandler(benchConfig(), platform) };
// The body is handed over as parley-mcp/node reads it from the socket, so one Request serves every call of a step.
const requests = new Map<string, Request>();
const requestFor = (path: string, headers: Record<string, string>) => {
  const key = JSON.stringify([path, headers]);
  let request = requests.get(key);
  if (!request)
    requests.set(
      key,
      (request = new Request(`http://127.0.0.1:3000${path}`, { method: 'POST', headers: { ...headers, host: '127.0.0.1:3000' } })),
    );
  return request;
};

async function cycle(handler: ReturnType<typeof createFetchHandler>): Promise<void> {
  const context: Record<string, unknown> = {};
  for (const step of scenarios[name]().steps) {
    const wire = typeof step.request === 'function' ? step.request(context) : step.request;
    const response = await handler(requestFor(wire.path, wire.headers), { readBody: () => Promise.resolve(wire.body) });
    // parley-mcp/node writes a plain response's text as it is: read it so, not through a Fetch Response built for the check.
    const body = response instanceof PlainResponse && response.untouched ? response.plainText! : await response.text();
    if (!step.check(body, context)) throw new Error(`${name}: an unexpected answer`);
  }
}

for (const count of ab ? [10_000, 30_000, 30_000, 30_000] : [20_000, 50_000, 50_000]) {
  for (const [label, handler] of Object.entries(handlers)) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let done = 0; done < count; done += concurrency) await Promise.all(Array.from({ length: concurrency }, () => cycle(handler)));
    const used = process.cpuUsage(cpu);
    const tag = label === 'default' ? name : `${name} (${label})`;
    console.log(
      `${tag}: ${count} cycles, ${((used.user + used.system) / count).toFixed(1)} µs CPU and ${(((performance.now() - started) * 1000) / count).toFixed(1)} µs wall each`,
    );
  }
}
