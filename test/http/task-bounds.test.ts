// The bounds on what tasks hold (#45): a task's arguments are never kept in the store (read straight from a real
// Redis), and under serve() anonymous callers' live tasks are capped per client address (loopback 127.0.0.2 and
// 127.0.0.3 are two clients), with tasks.maxTotal beside it; a refusal is a JSON-RPC error with its HTTP status.
import { request } from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { App, createFetchHandler, type FrontMcpConfigInput, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { mcpRequest, meta, read } from '../helpers/requests';

const TASKS = 'io.modelcontextprotocol/tasks';
const declaring = meta({ elicitation: {}, extensions: { [TASKS]: {} } });

@Tool({ name: 'quick', inputSchema: { data: z.string() }, execution: { taskSupport: 'optional' } })
class Quick extends ToolContext {
  async execute({ data }: { data: string }) {
    await this.startTask();
    return `read ${data.length} characters`;
  }
}

@Tool({ name: 'slow', inputSchema: {}, execution: { taskSupport: 'optional' } })
class Slow extends ToolContext {
  async execute() {
    await this.startTask();
    await new Promise((resolve) => this.signal.addEventListener('abort', resolve, { once: true }));
    return 'stopped';
  }
}

@App({ id: 'bounds', tools: [Quick, Slow] })
class BoundsApp {}

const config = (extra: Partial<FrontMcpConfigInput> = {}): FrontMcpConfigInput => ({
  info: { name: 'task-bounds', version: '1.0.0' },
  apps: [BoundsApp],
  elicitation: { enabled: true },
  logger: { debug() {}, info() {}, warn() {}, error() {} },
  ...extra,
});

describe('a task in Redis', () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('keeps none of its arguments: three 200 KB calls leave a few KB in Redis, their results readable', async () => {
    const handler = createFetchHandler(config({ redis: redis.url }));
    const raw = new Redis(redis.url);
    try {
      const data = 'a'.repeat(200_000);
      for (let n = 0; n < 3; n++) {
        const created = await read(await handler(mcpRequest('tools/call', { name: 'quick', arguments: { data }, _meta: declaring })));
        const { taskId } = created.body.result;
        const get = () => handler(mcpRequest('tasks/get', { taskId, _meta: declaring }, { headers: { 'mcp-name': taskId } }));
        await vi.waitFor(async () => expect((await read(await get())).body.result.status).toBe('completed'));
        expect((await read(await get())).body.result.result.content).toEqual([{ type: 'text', text: 'read 200000 characters' }]);
      }
      const keys = await raw.keys('*');
      const bytes = (await Promise.all(keys.map((key) => raw.strlen(key).catch(() => 0)))).reduce((a, b) => a + b, 0);
      expect(bytes).toBeLessThan(50_000);
    } finally {
      raw.disconnect();
      await handler.close();
    }
  });
});

describe('ended tasks kept per caller', () => {
  it('default to the live cap: a caller whose 120 live tasks all end can still read the first one', async () => {
    const handler = createFetchHandler(config({ tasks: { maxPerCaller: 150 } }));
    try {
      const call = async () =>
        (await read(await handler(mcpRequest('tools/call', { name: 'quick', arguments: { data: 'x' }, _meta: declaring })))).body.result
          .taskId as string;
      const ids: string[] = [];
      for (let n = 0; n < 120; n++) ids.push(await call());
      const get = async (taskId: string) =>
        (await read(await handler(mcpRequest('tasks/get', { taskId, _meta: declaring }, { headers: { 'mcp-name': taskId } })))).body;
      await vi.waitFor(async () => expect((await get(ids.at(-1)!)).result?.status).toBe('completed'));
      expect((await get(ids[0]!)).result?.status).toBe('completed');
    } finally {
      await handler.close();
    }
  });
});

/** A 2026-07-28 tools/call of `slow` from the loopback address `from`: the HTTP status and the JSON-RPC body. */
function callFrom(port: number, from: string): Promise<{ status: number; body: any }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {}, _meta: declaring } });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'slow',
  };
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers, localAddress: from }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('anonymous tasks under serve()', () => {
  const started: RunningServer[] = [];
  const start = async (tasks: FrontMcpConfigInput['tasks']) => {
    const running = await serve(config({ tasks }), { port: 0 });
    started.push(running);
    return running.port;
  };
  afterAll(async () => {
    await Promise.all(started.map((running) => running.close()));
  });

  it('are capped per client address (429): another address keeps its own', async () => {
    const port = await start({ maxPerCaller: 2 });
    for (let n = 0; n < 2; n++) expect((await callFrom(port, '127.0.0.2')).body.result).toMatchObject({ resultType: 'task' });
    const over = await callFrom(port, '127.0.0.2');
    expect(over.status).toBe(429);
    expect(over.body.error.data).toMatchObject({ limit: 'tasks.maxPerCaller', max: 2 });
    expect(over.body.error.message).toMatch(/anonymous callers from this address/);
    for (let n = 0; n < 2; n++) expect((await callFrom(port, '127.0.0.3')).body.result).toMatchObject({ resultType: 'task' });
  });

  it('are capped in total by tasks.maxTotal (503), whatever their address', async () => {
    const port = await start({ maxPerCaller: 2, maxTotal: 3 });
    for (const from of ['127.0.0.2', '127.0.0.2', '127.0.0.3'])
      expect((await callFrom(port, from)).body.result).toMatchObject({ resultType: 'task' });
    const full = await callFrom(port, '127.0.0.4');
    expect(full.status).toBe(503);
    expect(full.body.error.data).toMatchObject({ limit: 'tasks.maxTotal', max: 3 });
  });
});
