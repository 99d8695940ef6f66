// The task store contract over every backend: memory, SQLite (two connections to one file), Redis on a real
// redis-server (two clients), Redis over HTTP through the project's Upstash REST server on that Redis.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_DEFAULTS } from '../../src/engine/tasks/task-limits';
import { TaskStore } from '../../src/engine/tasks/task-store';
import { TaskWork } from '../../src/engine/tasks/task-work';
import { MemoryStore } from '../../src/stores';
import { createRedisStore } from '../../src/stores/redis';
import { RedisHttpStore } from '../../src/stores/redis-http';
import { createSqliteStore } from '../../src/stores/sqlite';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';
import { describeTaskStore } from './task-store-contract';

const dir = mkdtempSync(join(tmpdir(), 'parley-tasks-'));
let redis: RunningRedis;
let upstash: UpstashServer;
beforeAll(async () => {
  redis = await startRedis();
  upstash = await startUpstashServer(redis.url);
});
afterAll(async () => {
  await upstash?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describeTaskStore('memory', async () => {
  const one = new MemoryStore();
  return [one, one];
});
describeTaskStore('sqlite', async () => {
  const path = join(dir, 'tasks.sqlite');
  return [await createSqliteStore({ path }), await createSqliteStore({ path })];
});
describeTaskStore('redis', async () => [await createRedisStore(redis.url), await createRedisStore(redis.url)]);
describeTaskStore('redis-http', async () => [
  new RedisHttpStore({ url: upstash.url, token: upstash.token }),
  new RedisHttpStore({ url: upstash.url, token: upstash.token }),
]);

describe('task store on Redis, read with another client', () => {
  it('holds nothing readable: every key and value of a task that asked and was answered, straight from Redis', async () => {
    const backend = await createRedisStore(redis.url);
    const raw = new Redis(redis.url);
    try {
      const store = new TaskStore({ backend, keyPrefix: 'raw-check:', secret: 'the secret' });
      const { taskId } = await store.create({ owner: 'carol', tool: 'pay' });
      await store.park(taskId, [['q', { method: 'elicitation/create', params: { message: 'PIN-QUESTION' } }]]);
      await store.answer(taskId, 'carol', { q: { action: 'accept', content: { pin: '9876' } } });
      const keys = await raw.keys('raw-check:*');
      expect(keys.length).toBeGreaterThanOrEqual(4);
      const dump = [...keys, ...(await raw.mget(...keys)).map(String)].join('\n');
      for (const hidden of ['4111-1111', 'PIN-QUESTION', '9876', 'carol', taskId]) expect(dump).not.toContain(hidden);
      for (const key of keys) expect(await raw.pttl(key)).toBeGreaterThan(0);
    } finally {
      raw.disconnect();
      await backend.close();
    }
  });
});

describe('task work that cannot start', () => {
  it('no longer counts among the live tasks of the process (tasks.maxTotal) once its start failed', async () => {
    const memory = new MemoryStore();
    // A subscription refused at the work's start: a store away at that moment, which a memory store cannot be.
    const refusing = Object.assign(Object.create(memory) as MemoryStore, {
      subscribe: () => Promise.reject(new Error('the store is away')),
    });
    const store = new TaskStore({ backend: refusing, keyPrefix: 'start:', secret: 's' }, { ...TASK_DEFAULTS, maxTotal: 1 });
    const task = await store.create({ tool: 't' });
    await expect(TaskWork.start(store, task, {})).rejects.toThrow(/away/);
    await expect(store.create({ tool: 't' })).resolves.toMatchObject({ tool: 't' });
  });
});

describe('task work that asks many questions', () => {
  it('asks 12 in turn: each answer replays it with the answers so far, and no abort listener is left behind', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const memory = new MemoryStore();
    try {
      const store = new TaskStore({ backend: memory, keyPrefix: 'many:', secret: 's' });
      const run = { args: {}, auth: { user: { sub: 'ann' } }, capabilities: { elicitation: {} } };
      const task = await store.create({ tool: 't', run });
      const keys = Array.from({ length: 12 }, (_, n) => `q-${n}`);
      const replays: number[] = [];
      const execute = async (work: TaskWork) => {
        const got: unknown[] = [];
        for (const key of keys) got.push(await work.ask(key, { message: `${key}?`, requestedSchema: { type: 'object', properties: {} } }));
        return got;
      };
      let work = await TaskWork.start(store, task, { elicitation: {} });
      for (const key of keys) {
        const outcome = await Promise.race([execute(work), new Promise<'parked'>((resolve) => work.onSuspend(() => resolve('parked')))]);
        expect(outcome).toBe('parked');
        expect((await store.snapshot(task.taskId, undefined))?.inputRequests?.map(([open]) => open)).toEqual([key]);
        expect(await store.answer(task.taskId, undefined, { [key]: { action: 'accept', content: { key } } })).toEqual([key]);
        expect(await store.claim(task.taskId, 60_000)).toBe(true);
        work = await TaskWork.start(store, (await store.record(task.taskId, undefined))!, { elicitation: {} });
        replays.push(keys.filter((asked) => work.known(asked)).length);
      }
      expect(replays).toEqual(keys.map((_, n) => n + 1));
      expect(await execute(work)).toEqual(keys.map((key) => ({ action: 'accept', content: { key } })));
      expect((await store.record(task.taskId, undefined))?.asked).toEqual(keys);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
      expect(await work.finish({ status: 'completed', result: { content: [] } })).toBe(true);
    } finally {
      process.off('warning', onWarning);
      await memory.close();
    }
  });
});
