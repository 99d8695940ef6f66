// Many listens following the same tasks (#45): each task is followed once in the process, not once per listen, so 17
// listens of 100 tasks read the store about as often as one does (GETs counted by a real redis-server's
// commandstats), every listen still hears every task and its end, and Node warns of no listener leak.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, createFetchHandler, Tool, ToolContext, z } from 'parley-mcp';
import { sseReader } from '../helpers/legacy';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { mcpRequest, meta, read } from '../helpers/requests';

const TASKS = 'io.modelcontextprotocol/tasks';
const declaring = meta({ elicitation: {}, extensions: { [TASKS]: {} } });
const TASK_COUNT = 100;
const LISTENS = 17;

@Tool({ name: 'slow', inputSchema: { data: z.string() }, execution: { taskSupport: 'optional' } })
class Slow extends ToolContext {
  async execute() {
    await this.startTask();
    await new Promise((resolve) => this.signal.addEventListener('abort', resolve, { once: true }));
    return 'stopped';
  }
}

@App({ id: 'shared', tools: [Slow] })
class SharedApp {}

/** Reads notifications/tasks off a listen until `count` of them had the status wanted. */
async function hear(events: ReturnType<typeof sseReader>, status: string, count: number): Promise<Set<string>> {
  const ids = new Set<string>();
  while (ids.size < count) {
    const event = await events.next();
    if (!event) throw new Error(`the listen ended after ${ids.size} tasks ${status}`);
    if (event.data.method === 'notifications/tasks' && event.data.params.status === status) ids.add(event.data.params.taskId);
  }
  return ids;
}

describe('listens that follow the same tasks', () => {
  let redis: RunningRedis;
  let raw: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    raw = new Redis(redis.url);
  });
  afterAll(async () => {
    raw?.disconnect();
    await redis?.stop();
  });

  const gets = async () => Number(/cmdstat_get:calls=(\d+)/.exec(await raw.info('commandstats'))?.[1] ?? 0);

  it('share one follower per task: the store is read once per task and change, not once per listen', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const handler = createFetchHandler({
      info: { name: 'task-follow-shared', version: '1.0.0' },
      apps: [SharedApp],
      elicitation: { enabled: true },
      redis: redis.url,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    try {
      const taskIds: string[] = [];
      for (let n = 0; n < TASK_COUNT; n++) {
        const call = mcpRequest('tools/call', { name: 'slow', arguments: { data: 'x'.repeat(1_000) }, _meta: declaring });
        taskIds.push((await read(await handler(call))).body.result.taskId);
      }
      const before = await gets();
      const listens = await Promise.all(
        Array.from({ length: LISTENS }, async () => {
          const response = await handler(mcpRequest('subscriptions/listen', { notifications: { taskIds }, _meta: declaring }));
          const events = sseReader(response);
          await events.next(); // the acknowledgement
          return events;
        }),
      );
      for (const events of listens) expect((await hear(events, 'working', TASK_COUNT)).size).toBe(TASK_COUNT);
      for (const taskId of taskIds)
        await read(await handler(mcpRequest('tasks/cancel', { taskId, _meta: declaring }, { headers: { 'mcp-name': taskId } })));
      for (const events of listens) expect([...(await hear(events, 'cancelled', TASK_COUNT))].sort()).toEqual([...taskIds].sort());
      // One listen alone costs a few reads per task at its start and at each change; seventeen cost about the same.
      const reads = (await gets()) - before;
      expect(reads).toBeLessThan(LISTENS * TASK_COUNT);
      expect(warnings).not.toContain('MaxListenersExceededWarning');
      await Promise.all(listens.map((events) => events.cancel()));
    } finally {
      process.off('warning', onWarning);
      await handler.close();
    }
  });
});
