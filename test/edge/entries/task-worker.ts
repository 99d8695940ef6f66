// A Worker with tools that run as tasks, for the edge tests. Its env bindings pick the case: ELICITATION (JSON) the
// elicitation options, TASKS=off leaves enableTasks() out, and AFTER_RESPONSE_MS stands in for the 30 s Cloudflare
// gives ctx.waitUntil work (workerd run locally never cuts that work, so a test gives the task a shorter limit through
// the same field createWorker sets). STEP_URL is where the step of charge_then_ask reports that it ran (a server the
// test runs): a side effect seen outside every isolate.
import { App, createFetchHandler, type FetchHandler, Tool, ToolContext, z } from 'parley-mcp';
import { createWorker, type WorkerExport } from 'parley-mcp/cloudflare';
import { enableRedisHttp } from 'parley-mcp/redis-http';
import { enableTasks } from 'parley-mcp/tasks';

enableRedisHttp();

// Which isolate ran a step: each loads this module once (random values are not made at a Worker's global scope).
let isolate: string | undefined;

// Where the step reports it ran: the isolate's STEP_URL binding, read by its first request.
let stepUrl: string | undefined;

@Tool({ name: 'approve_export', inputSchema: { rows: z.number().int() }, execution: { taskSupport: 'required' } })
class ApproveExport extends ToolContext {
  async execute({ rows }: { rows: number }) {
    await this.startTask();
    this.progress(1, 2, `Counted ${rows} rows`);
    const go = await this.elicit(`Export ${rows} rows?`, z.object({ confirm: z.boolean() }));
    return go.content?.confirm ? `Exported ${rows} rows` : 'Nothing exported';
  }
}

@Tool({ name: 'outlast', inputSchema: {}, execution: { taskSupport: 'required' } })
class Outlast extends ToolContext {
  async execute() {
    await this.startTask();
    // Works until its signal fires: longer than the platform lets it run after the response.
    const signal = this.signal;
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    return 'stopped';
  }
}

@Tool({ name: 'two_halves', inputSchema: {}, execution: { taskSupport: 'required' } })
class TwoHalves extends ToolContext {
  async execute() {
    await this.startTask();
    // Each half takes a second: together longer than the platform lets one stretch run, each alone shorter.
    const half = (name: string) =>
      this.step(
        name,
        () =>
          new Promise<string>((resolve) => setTimeout(() => resolve(`${name} on ${(isolate ??= crypto.randomUUID().slice(0, 8))}`), 1_000)),
      );
    return `${await half('first')}, ${await half('second')}`;
  }
}

@Tool({ name: 'charge_then_ask', inputSchema: { order: z.string() }, execution: { taskSupport: 'required' } })
class ChargeThenAsk extends ToolContext {
  async execute({ order }: { order: string }) {
    await this.startTask();
    const ranOn = () => (isolate ??= crypto.randomUUID().slice(0, 8));
    // The side effect before the question: once per task, however often the work replays.
    const charged = await this.step('charge', async () => {
      const response = await fetch(stepUrl!, { method: 'POST', body: `charge ${order} on ${ranOn()}` });
      return `charged ${order} on ${ranOn()} (${await response.text()})`;
    });
    const go = await this.elicit(`Ship order ${order}?`, z.object({ confirm: z.boolean() }));
    return `${charged}; ${go.content?.confirm ? 'shipped' : 'kept'} on ${ranOn()}`;
  }
}

@App({ id: 'jobs', tools: [ApproveExport, Outlast, TwoHalves, ChargeThenAsk] })
class Jobs {}

let worker: WorkerExport | FetchHandler | undefined;

export default {
  fetch(request: Request, env: Record<string, unknown>, ctx: { waitUntil(promise: Promise<unknown>): void }): Promise<Response> {
    if (!worker) {
      stepUrl = typeof env.STEP_URL === 'string' ? env.STEP_URL : undefined;
      if (env.TASKS !== 'off') enableTasks();
      const config = {
        info: { name: 'task-worker', version: '1.0.0' },
        apps: [Jobs],
        elicitation: JSON.parse(String(env.ELICITATION ?? '{"enabled":true}')),
        tasks: { pollIntervalMs: 50 },
      };
      worker = env.AFTER_RESPONSE_MS ? createFetchHandler(config) : createWorker(config);
    }
    if (!env.AFTER_RESPONSE_MS) return worker.fetch(request, env, ctx);
    const afterResponseMs = Number(env.AFTER_RESPONSE_MS);
    return worker.fetch(request, env, { waitUntil: (promise: Promise<unknown>) => ctx.waitUntil(promise), afterResponseMs });
  },
};
