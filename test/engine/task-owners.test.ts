// A caller's index of tasks (tasks.maxPerCaller) when instances write it without a lock between them: an end written by
// one instance and overwritten by another's admission read before it leaves the index calling an ended task live. The
// cap looks such tasks up before it refuses, so the caller is not held at it by tasks that ended; tasks truly live
// still fill it.
import { describe, expect, it } from 'vitest';
import { OwnerIndex } from '../../src/engine/tasks/task-owners';
import { LimitError } from '../../src/protocol';
import { MemoryStore } from '../../src/stores/memory';

const INDEX = 'task-owner:caller';
// The index's values as plain JSON: this test is about what the index counts, not about its sealing.
const plain = {
  sealAt: async (value: unknown) => JSON.stringify(value),
  openAt: async <T>(raw: string | undefined) => (raw === undefined ? undefined : (JSON.parse(raw) as T)),
};
const limits = { maxPerOwner: 2, maxEnded: 10, maxEndedBytes: 1_000_000 };

function twoInstances() {
  const backend = new MemoryStore();
  const ended = new Set<string>();
  const hasEnded = async (taskId: string) => ended.has(taskId);
  return { backend, ended, a: new OwnerIndex(backend, plain, limits, hasEnded), b: new OwnerIndex(backend, plain, limits, hasEnded) };
}

const task = (taskId: string) => ({ taskId, expiresAt: Date.now() + 60_000 });
const admit = (index: OwnerIndex, taskId: string) => index.admit(INDEX, 'this caller', task(taskId), async () => {});

describe('the caller index across instances', () => {
  it('an end on B overwritten by an admission on A does not hold the caller at the cap', async () => {
    const { backend, ended, a, b } = twoInstances();
    await admit(a, 't1');
    // A reads the index for its next admission; meanwhile t1 ends on B; then A writes what it read, plus t2.
    const readByA = await backend.get(INDEX);
    ended.add('t1');
    await b.ended(INDEX, 't1', 100);
    await backend.set(INDEX, JSON.stringify([...JSON.parse(readByA!), ['t2', Date.now() + 60_000, 1]]));
    // The index calls t1 and t2 live: at the cap of 2. t1 has ended, so t3 is let in.
    await admit(a, 't3');
    expect(await a.taskIds(INDEX)).toEqual(['t1', 't2', 't3']);
    // Now t2 and t3 are live: t4 is refused, naming the limit.
    const refused = await admit(b, 't4').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LimitError);
    expect((refused as LimitError).message).toMatch(/at most 2 \(tasks\.maxPerCaller\)/);
  });

  it('with no end stored anywhere, tasks at the cap keep it full on every instance', async () => {
    const { a, b } = twoInstances();
    await admit(a, 't1');
    await admit(b, 't2');
    await expect(admit(a, 't3')).rejects.toBeInstanceOf(LimitError);
    await expect(admit(b, 't3')).rejects.toBeInstanceOf(LimitError);
  });
});
