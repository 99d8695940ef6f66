// 2025-11-25 tasks on Cloudflare Workers: the official v1 client (1.32) creates a task on one workerd isolate, its
// tasks/get polls go to another (the session and the task are in real Redis behind the Upstash REST test server), the
// question comes on the tasks/result stream, and the answer completes the task under the first isolate's ctx.waitUntil.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';
import { startWorker, type RunningWorker } from '../helpers/workerd';

let redis: RunningRedis;
let upstash: UpstashServer;
const running: RunningWorker[] = [];
beforeAll(async () => {
  redis = await startRedis();
  upstash = await startUpstashServer(redis.url);
});
afterAll(async () => {
  await Promise.all(running.map((w) => w.dispose()));
  await upstash?.close();
  await redis?.stop();
});

it('runs a task whose tool asks, polled on another isolate, answered on the tasks/result stream', { timeout: 30_000 }, async () => {
  const { code } = await bundleWorker('test/edge/entries/task-worker.ts');
  const bindings = {
    UPSTASH_REDIS_REST_URL: upstash.url,
    UPSTASH_REDIS_REST_TOKEN: upstash.token,
    MCP_SESSION_SECRET: 'shared-session-secret',
  };
  const [a, b] = [startWorker(code, bindings), startWorker(code, bindings)];
  running.push(a, b);
  const urls = { a: new URL('/mcp', await a.mf.ready), b: new URL('/mcp', await b.mf.ready) };
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
