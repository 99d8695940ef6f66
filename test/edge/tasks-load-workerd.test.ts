// 200 tasks at once on a Worker whose store is Durable Objects, in workerd: each created on one of two isolates and
// followed and answered on the other, every answer naming its task. None lost, none crossed, none asked twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from 'parley-mcp/client';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers, type DurableWorkers, type Isolate } from '../helpers/durable-objects';

let workers: DurableWorkers;
beforeAll(async () => {
  const bundle = await bundleWorker('test/edge/entries/durable-task-worker.ts');
  expect(bundle.nodeImports).toEqual([]);
  workers = startDurableWorkers({ code: bundle.code });
});
afterAll(() => workers?.dispose());

const TASKS = 200;

describe('tasks on Workers with Durable Objects, under load', () => {
  it(`${TASKS} tasks at once over two isolates: each completes with its own answer`, { timeout: 240_000 }, async () => {
    const routed = new Map<string, number>();
    // Task n is created on a for an even n, on b for an odd one; its polls and answer go to the other isolate.
    const clientFor = (created: Isolate) => {
      const other: Isolate = created === 'a' ? 'b' : 'a';
      return new McpClient({
        url: new URL(`http://${created}.test/mcp`),
        tasks: { minPollMs: 250 },
        fetch: async (request) => {
          const method = request.headers.get('mcp-method') ?? '';
          const to = method.startsWith('tasks/') ? other : created;
          routed.set(`${method} ${to}`, (routed.get(`${method} ${to}`) ?? 0) + 1);
          const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
          const response = await workers.send(to, new URL(request.url).pathname, {
            method: request.method,
            headers: Object.fromEntries(request.headers),
            body,
          });
          return new Response(response.body, { status: response.status, headers: response.headers });
        },
      });
    };
    const clients = { a: clientFor('a'), b: clientFor('b') };
    const asked = new Map<number, number>();
    for (const client of Object.values(clients))
      client.onElicitation((params) => {
        const n = Number(/task (\d+)/.exec(params.message)?.[1]);
        asked.set(n, (asked.get(n) ?? 0) + 1);
        return { action: 'accept', content: { value: `answer-${n}` } };
      });
    try {
      const results = await Promise.all(
        Array.from({ length: TASKS }, (_, n) => clients[n % 2 ? 'b' : 'a'].callTool({ name: 'ask_task', arguments: { n } })),
      );
      results.forEach((result, n) => expect(result.content).toEqual([{ type: 'text', text: `task ${n} got answer-${n}` }]));
      expect([...asked.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: TASKS }, (_, n) => n));
      expect([...asked.values()].every((times) => times === 1)).toBe(true);
      expect(routed.get('tools/call a')).toBe(TASKS / 2);
      expect(routed.get('tools/call b')).toBe(TASKS / 2);
      expect(routed.get('tasks/update a')).toBe(TASKS / 2);
      expect(routed.get('tasks/update b')).toBe(TASKS / 2);
      expect(workers.output()).not.toContain('ERROR');
    } finally {
      await Promise.all(Object.values(clients).map((client) => client.close()));
    }
  });
});
