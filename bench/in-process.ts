// npx tsx bench/in-process.ts [scenario] [concurrency]: a scenario's requests straight into the fetch handler, no HTTP:
// Parley's own CPU per cycle, for quick A/B runs of a change (the full table is npm run bench).
import { createFetchHandler } from 'parley-mcp';
import 'parley-mcp/node'; // what a Node deployment loads: native HMAC and plain responses
import { PlainResponse } from '../src/adapters/node-response';
import * as scenarios from './scenarios';
import { benchConfig } from './servers/parley-app';

const name = (process.argv[2] ?? 'simpleCall') as keyof typeof scenarios;
const concurrency = Number(process.argv[3] ?? 32);
const handler = createFetchHandler(benchConfig());
// The body is handed over as parley-mcp/node reads it from the socket, so one Request serves every call of a step.
const requests = new Map<string, Request>();
const requestFor = (path: string, headers: Record<string, string>) => {
  const key = JSON.stringify([path, headers]);
  let request = requests.get(key);
  if (!request) requests.set(key, (request = new Request(`http://127.0.0.1:3000${path}`, { method: 'POST', headers: { ...headers, host: '127.0.0.1:3000' } })));
  return request;
};

async function cycle(): Promise<void> {
  const context: Record<string, unknown> = {};
  for (const step of scenarios[name]().steps) {
    const wire = typeof step.request === 'function' ? step.request(context) : step.request;
    const response = await handler(requestFor(wire.path, wire.headers), { readBody: () => Promise.resolve(wire.body) });
    // parley-mcp/node writes a plain response's text as it is: read it so, not through a Fetch Response built for the check.
    const body = response instanceof PlainResponse && response.untouched ? response.plainText! : await response.text();
    if (!step.check(body, context)) throw new Error(`${name}: an unexpected answer`);
  }
}

for (const count of [20_000, 50_000, 50_000]) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let done = 0; done < count; done += concurrency) await Promise.all(Array.from({ length: concurrency }, cycle));
  const used = process.cpuUsage(cpu);
  console.log(`${name}: ${count} cycles, ${((used.user + used.system) / count).toFixed(1)} µs CPU and ${(((performance.now() - started) * 1000) / count).toFixed(1)} µs wall each`);
}
