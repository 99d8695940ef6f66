// Following tasks on a store whose channels stay in the process (memory), where follows also poll (#45): 17 follows
// of the same 98 tasks subscribe to each task once and read at most 8 tasks at once, every follow still hears each
// change, and a hostile id is left out.
import { describe, expect, it } from 'vitest';
import { createTaskRuntime } from '../../src/engine/tasks/task-runtime';
import { TaskStore } from '../../src/engine/tasks/task-store';
import { ANONYMOUS } from '../../src/model';
import { MemoryStore, type StoreBackend } from '../../src/stores';

const TASKS = 'io.modelcontextprotocol/tasks';
const who = { auth: ANONYMOUS, capabilities: { extensions: { [TASKS]: {} } } };

/** A real memory store, its subscriptions counted and its reads in flight measured. */
function counted(backend: StoreBackend) {
  const seen = { subscribes: 0, reading: 0, mostReading: 0 };
  const wrapped: StoreBackend = Object.assign(Object.create(backend) as StoreBackend, {
    subscribe: (channel: string, onMessage: (message: string) => void) => {
      seen.subscribes++;
      return backend.subscribe(channel, onMessage);
    },
    get: async (key: string) => {
      seen.mostReading = Math.max(seen.mostReading, ++seen.reading);
      try {
        return await backend.get(key);
      } finally {
        seen.reading--;
      }
    },
  });
  return { wrapped, seen };
}

describe('follows of the same tasks on a memory store', () => {
  it('share one subscription per task and at most 8 reads at once, each follow hearing every change', async () => {
    const memory = new MemoryStore();
    const { wrapped, seen } = counted(memory);
    const home = { backend: wrapped, keyPrefix: 'follow:', secret: 'the secret' };
    const runtime = createTaskRuntime(home, {
      ttlMs: 60_000,
      pollIntervalMs: 50,
      maxPerOwner: 100,
      maxTotal: 1_000,
      ended: { maxPerCaller: 100, maxBytesPerCaller: 1e7, maxTotal: 1e4, maxBytesTotal: 1e8 },
      leaseMs: 30_000,
      attempts: 3,
    });
    const store = new TaskStore(home);
    const taskIds: string[] = [];
    for (let n = 0; n < 98; n++) taskIds.push((await store.create({ tool: 't' })).taskId);
    const heard = Array.from({ length: 17 }, () => new Map<string, string>());
    const follows = await Promise.all(
      heard.map((statuses) =>
        runtime.follow([...taskIds, '__proto__', 'constructor'], who, (task) => statuses.set(String(task.taskId), String(task.status))),
      ),
    );
    for (const follow of follows) {
      expect(follow.taskIds).toEqual(taskIds);
      follow.begin();
    }
    expect(seen.subscribes).toBe(98);
    for (const taskId of taskIds) await store.cancel(taskId, undefined);
    await expect.poll(() => heard.every((statuses) => [...statuses.values()].filter((s) => s === 'cancelled').length === 98)).toBe(true);
    expect(seen.mostReading).toBeLessThanOrEqual(8);
    for (const follow of follows) follow.stop();
    await memory.close();
  });
});
