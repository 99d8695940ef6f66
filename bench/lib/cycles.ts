// The driver bench/callgrind-in-process.ts bundles: N cycles of a scenario straight into the fetch handler, 32 at a
// time, with parley-mcp/node's platform.
import { createFetchHandler } from 'parley-mcp';
import { PlainResponse } from '../../src/adapters/node-response';
import { NODE_PLATFORM } from '../../src/adapters/node-platform';
import * as scenarios from '../scenarios';
import { benchConfig } from '../servers/parley-app';
const name = process.argv[2] as keyof typeof scenarios;
const count = Number(process.argv[3]);
const handler = createFetchHandler(benchConfig(), NODE_PLATFORM);
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
async function cycle() {
  const context: Record<string, unknown> = {};
  for (const step of scenarios[name]().steps) {
    const wire = typeof step.request === 'function' ? step.request(context) : step.request;
    const response = await handler(requestFor(wire.path, wire.headers), { readBody: () => Promise.resolve(wire.body) });
    const body = response instanceof PlainResponse && response.untouched ? response.plainText! : await response.text();
    if (!step.check(body, context)) throw new Error('unexpected answer');
  }
}
for (let done = 0; done < count; done += 32) await Promise.all(Array.from({ length: 32 }, () => cycle()));
