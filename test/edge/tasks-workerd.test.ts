// Tasks on Cloudflare Workers, inside workerd: the work runs under ctx.waitUntil on the isolate that created the task,
// its record lives in real Redis behind the Upstash REST test server, so another isolate serves tasks/get and
// tasks/update for it. workerd run locally never cuts waitUntil work (Cloudflare cuts it 30 s after the response), so
// the limit is given shorter through the same field createWorker sets: a stretch of work that outruns it is handed over
// and resumed by replay from its last step on the isolate polled next, and one that always outruns it ends failed after
// tasks.attempts; a task waiting for its person past that limit runs nothing meanwhile, and the answer's isolate
// completes it by replay.
// 2025-11-25 tasks too, driven by the official v1 client (1.32).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { mcpRequest } from '../helpers/requests';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';
import { startWorkerPair, splitTasksClient, upstashBindings } from '../helpers/worker-pair';
import { startWorker } from '../helpers/workerd';

let redis: RunningRedis;
let upstash: UpstashServer;
const running: { dispose(): Promise<void> }[] = [];
beforeAll(async () => {
  redis = await startRedis();
  upstash = await startUpstashServer(redis.url);
});
afterAll(async () => {
  await Promise.all(running.map((w) => w.dispose()));
  await upstash?.close();
  await redis?.stop();
});

/** Two isolates of one Worker sharing the store, and a client whose tools/call goes to A and every tasks/* to B. */
async function pair(entry: string, extra: Record<string, string> = {}) {
  const workers = await startWorkerPair(entry, { ...upstashBindings(upstash), ...extra });
  running.push(workers);
  return { ...workers, ...splitTasksClient(workers) };
}

describe('tasks on Cloudflare Workers, Redis over HTTP', () => {
  it('creates a task on one isolate; another serves its polls and answer, and the task completes', { timeout: 30_000 }, async () => {
    const { client, routed } = await pair('examples/cloudflare/worker-tasks.ts');
    const asked: string[] = [];
    client.onElicitation((params) => {
      asked.push(params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    try {
      const result = await client.callTool({ name: 'export_tickets', arguments: { status: 'open' } });
      expect(result.content).toEqual([{ type: 'text', text: 'tickets-open.csv: 3 rows' }]);
      expect(asked).toEqual(['Write 3 open tickets to tickets-open.csv?']);
      // Created on A; every poll and the answer went to B, which found the task in Redis and woke A's work.
      expect(routed.filter((r) => r.startsWith('tools/call'))).toEqual(['tools/call a']);
      expect(routed).toContain('tasks/get b');
      expect(routed).toContain('tasks/update b');
      expect(routed.filter((r) => r.startsWith('tasks/') && !r.endsWith(' b'))).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('takes a cancel on another isolate, and the task stays cancelled', { timeout: 30_000 }, async () => {
    const { client, routed } = await pair('test/edge/entries/task-worker.ts');
    try {
      const started = await client.startTool({ name: 'outlast' });
      if (!('task' in started)) throw new Error('expected a task');
      const { taskId } = started.task;
      expect(await client.request('tasks/cancel', { taskId })).toMatchObject({ resultType: 'complete' });
      const task = await client.request('tasks/get', { taskId });
      expect(task).toMatchObject({ taskId, status: 'cancelled' });
      expect(routed).toEqual(['tools/call a', 'tasks/cancel b', 'tasks/get b']);
      // A's work heard the cancel (its signal fired and it returned): its end changes nothing, the task stays cancelled.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await client.request('tasks/get', { taskId })).status).toBe('cancelled');
    } finally {
      await client.close();
    }
  });

  it('resumes a stretch that outruns the platform limit by replay on another isolate, from its last step', {
    timeout: 30_000,
  }, async () => {
    const { client, routed } = await pair('test/edge/entries/task-worker.ts', { AFTER_RESPONSE_MS: '2500' });
    const seen: string[] = [];
    try {
      const result = await client.callTool({ name: 'two_halves' }, { onTaskStatus: (t) => seen.push(t.status) });
      // The first half ran on A, which handed the stretch over before its cut; B's replay took the first half's recorded
      // result and ran the second.
      const text = (result.content as { text: string }[])[0]!.text;
      const [, first, second] = /^first on (\w+), second on (\w+)$/.exec(text) ?? [];
      expect(first).toBeDefined();
      expect(second).toBeDefined();
      expect(first).not.toBe(second);
      expect(seen).not.toContain('failed');
      expect(routed.filter((r) => r.startsWith('tools/call'))).toEqual(['tools/call a']);
    } finally {
      await client.close();
    }
  });

  it('ends a task whose every stretch outruns the limit failed after tasks.attempts, saying so', { timeout: 30_000 }, async () => {
    const { client } = await pair('test/edge/entries/task-worker.ts', { AFTER_RESPONSE_MS: '1500' });
    try {
      const started = await client.startTool({ name: 'outlast' });
      if (!('task' in started)) throw new Error('expected a task');
      const { taskId } = started.task;
      let task: Record<string, any> = started.task;
      for (let i = 0; i < 300 && task.status === 'working'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        task = await client.request('tasks/get', { taskId });
      }
      expect(task.status).toBe('failed');
      expect(task.error.code).toBe(-32603);
      expect(task.error.message).toContain("The task's work was cut 3 times before it reached its next step, question or end");
      expect(task.error.message).toContain('30 s on Cloudflare Workers');
      expect(task.statusMessage).toBe(task.error.message);
    } finally {
      await client.close();
    }
  });

  it('keeps a task waiting for its person past that limit, then completes it by replay on the isolate answered', {
    timeout: 30_000,
  }, async () => {
    const { client, routed } = await pair('test/edge/entries/task-worker.ts', { AFTER_RESPONSE_MS: '1500' });
    client.onElicitation(async () => {
      // The person answers after twice what the platform lets work run past a response: nothing was running meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      return { action: 'accept', content: { confirm: true } };
    });
    try {
      const result = await client.callTool({ name: 'approve_export', arguments: { rows: 12 } });
      expect(result.content).toEqual([{ type: 'text', text: 'Exported 12 rows' }]);
      expect(routed).toContain('tasks/update b');
      expect(routed.filter((r) => r.startsWith('tools/call'))).toEqual(['tools/call a']);
    } finally {
      await client.close();
    }
  });
});

describe('a Worker with a task tool that cannot keep tasks', () => {
  async function refusal(bindings: Record<string, string>): Promise<string> {
    const { code } = await bundleWorker('test/edge/entries/task-worker.ts');
    const worker = startWorker(code, bindings);
    running.push(worker);
    const response = await worker.send(mcpRequest('tools/list'));
    expect(response.status).toBe(503);
    await expect.poll(() => worker.output()).toContain('Server failed to start');
    return worker.output();
  }

  it('refuses to start without enableTasks() in its entry, naming it', async () => {
    const output = await refusal({ TASKS: 'off', ...upstashBindings(upstash) });
    expect(output).toContain(
      `Tool "approve_export" may run as a task (execution.taskSupport): tasks are not in this bundle: an edge bundle leaves them out unless the entry calls enableTasks() from 'parley-mcp/tasks'`,
    );
  });

  it('refuses to start with no store every isolate shares, naming the settings', async () => {
    const output = await refusal({ ELICITATION: '{"enabled":true,"edge":"stateless"}' });
    expect(output).toContain(
      'Tool "approve_export" may run as a task (execution.taskSupport), and tasks are kept in the elicitation store: on an edge runtime that is Redis over HTTP or, on Cloudflare Workers, Durable Objects: set elicitation: { enabled: true } with UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN',
    );
    expect(output).toContain(
      "bind the ParleyStore class as PARLEY_STORE in wrangler.toml, export it from the entry and call enableDurableObjects() from 'parley-mcp/cloudflare'",
    );
  });
});

describe('2025-11-25 tasks on Cloudflare Workers, Redis over HTTP', () => {
  it('runs a task whose tool asks, polled on another isolate, answered on the tasks/result stream', { timeout: 30_000 }, async () => {
    const workers = await startWorkerPair('test/edge/entries/task-worker.ts', {
      ...upstashBindings(upstash),
      MCP_SESSION_SECRET: 'shared-session-secret',
    });
    running.push(workers);
    const { urls } = workers;
    const routed: string[] = [];
    const balance = async (_input: string | URL | Request, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      const to = body.includes('"method":"tasks/get"') ? 'b' : 'a';
      routed.push(`${/"method":"([^"]+)"/.exec(body)?.[1] ?? init?.method ?? 'GET'} ${to}`);
      return fetch(urls[to], init);
    };
    const asked: string[] = [];
    const client = new Client({ name: 'v1-edge-tasks', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(urls.a, { fetch: balance }));
    try {
      const seen: any[] = [];
      const stream = client.experimental.tasks.callToolStream({ name: 'approve_export', arguments: { rows: 7 } }, CallToolResultSchema, {
        task: {},
      });
      for await (const message of stream) seen.push(message);
      const taskId = seen.find((m) => m.type === 'taskCreated')?.task.taskId as string;
      expect(taskId).toMatch(/^tsk_/);
      expect(asked).toEqual(['Export 7 rows?']);
      expect(seen.find((m) => m.type === 'result')?.result.content).toEqual([{ type: 'text', text: 'Exported 7 rows' }]);
      expect((await client.experimental.tasks.getTask(taskId)).status).toBe('completed');
      expect(routed).toContain('tasks/get b');
    } finally {
      await client.close();
    }
  });
});
