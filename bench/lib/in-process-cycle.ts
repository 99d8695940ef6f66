// One cycle of a scenario straight into a fetch handler, no HTTP: for bench/in-process.ts and the driver that
// bench/callgrind-in-process.ts runs under valgrind (bench/lib/cycles.ts).
import type { createFetchHandler } from 'parley-mcp';
import { PlainResponse } from '../../src/adapters/node-response';
import * as scenarios from '../scenarios';

export type ScenarioName = keyof typeof scenarios;

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

export async function cycle(handler: ReturnType<typeof createFetchHandler>, name: ScenarioName): Promise<void> {
  const context: Record<string, unknown> = {};
  for (const step of scenarios[name]().steps) {
    const wire = typeof step.request === 'function' ? step.request(context) : step.request;
    const response = await handler(requestFor(wire.path, wire.headers), { readBody: () => Promise.resolve(wire.body) });
    // parley-mcp/node writes a plain response's text as it is: read it so, not through a Fetch Response built for the check.
    const body = response instanceof PlainResponse && response.untouched ? response.plainText! : await response.text();
    if (!step.check(body, context)) throw new Error(`${name}: an unexpected answer`);
  }
}
