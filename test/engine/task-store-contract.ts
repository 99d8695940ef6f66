// The task store as one test body over every store backend, each against the real thing: two TaskStores ("two
// instances") on backends that share their data, created, asked, answered, raced, cancelled and expired.
import { afterEach, describe, expect, it } from 'vitest';
import { ElicitationNotSupportedError, LimitError } from '../../src/protocol';
import type { StoreBackend } from '../../src/stores';
import { isTaskId, type InputRequest } from '../../src/engine/tasks/task-record';
import { TaskStoppedError, TaskWork } from '../../src/engine/tasks/task-work';
import type { TaskEvent } from '../../src/engine/tasks/task-events';
import { cutTooOften, ORPHANED, TASK_DEFAULTS, type TaskLimits } from '../../src/engine/tasks/task-limits';
import { TaskStore } from '../../src/engine/tasks/task-store';

/** What a replay of the work runs with, for tasks that are resumed. */
const RUN = { args: {}, auth: { user: { sub: 'alice' } }, capabilities: {} };

/** Two backends that share their data (for a backend without pub/sub, the same object twice). */
export type BackendPair = () => Promise<[StoreBackend, StoreBackend]>;

const SECRET = 'a task secret for the contract';
const question = (message: string): InputRequest => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } },
});

/** Every key and value a backend was asked to store, and every channel and message it published. */
function recording(backend: StoreBackend): { backend: StoreBackend; written: string[]; published: string[] } {
  const written: string[] = [];
  const published: string[] = [];
  const wrapped: StoreBackend = {
    type: backend.type,
    supportsPubSub: backend.supportsPubSub,
    distributed: backend.distributed,
    get: (key) => backend.get(key),
    set: (key, value, ttlMs) => (written.push(key, value), backend.set(key, value, ttlMs)),
    delete: (key) => backend.delete(key),
    take: (key) => backend.take(key),
    publish: (channel, message) => (published.push(channel, message), backend.publish(channel, message)),
    subscribe: (channel, onMessage) => backend.subscribe(channel, onMessage),
    close: () => backend.close(),
  };
  return { backend: wrapped, written, published };
}

export function describeTaskStore(name: string, pair: BackendPair): void {
  describe(`task store: ${name}`, () => {
    const opened: StoreBackend[] = [];
    afterEach(async () => {
      await Promise.all([...new Set(opened.splice(0))].map((b) => b.close()));
    });
    /** Two instances' task stores, with their own prefix so tests never see each other's keys. */
    const instances = async (limits: Partial<TaskLimits> = {}, secrets: [string?, string?] = [SECRET, SECRET]) => {
      const [one, two] = await pair();
      opened.push(one, two);
      const keyPrefix = `t${crypto.randomUUID().slice(0, 8)}:`;
      const made = [one, two].map((b) => recording(b));
      const stores = made.map(
        ({ backend }, i) => new TaskStore({ backend, keyPrefix, secret: secrets[i] }, { ...TASK_DEFAULTS, ...limits }),
      );
      return {
        a: stores[0]!,
        b: stores[1]!,
        keyPrefix,
        written: () => made.flatMap((m) => m.written),
        published: () => made.flatMap((m) => m.published),
        backends: [one, two] as const,
      };
    };
    /** An instance that took an answer claims the parked work and starts its replay (undefined: another claimed it). */
    const replayOn = async (
      store: TaskStore,
      taskId: string,
      owner?: string,
      capabilities: Record<string, unknown> = { elicitation: {} },
    ) => {
      if (!(await store.claim(taskId, 60_000))) return undefined;
      return TaskWork.start(store, (await store.record(taskId, owner))!, capabilities);
    };
    /** What the work's run does until the work parks: the answers it got, in order, or 'parked'. */
    const until = <T>(work: TaskWork, run: Promise<T>): Promise<T | 'parked'> =>
      Promise.race([run, new Promise<'parked'>((resolve) => work.onSuspend(() => resolve('parked')))]);
    const heard = (store: TaskStore, taskId: string) => {
      const events: TaskEvent[] = [];
      return { events, stop: store.listen(taskId, (e) => events.push(e)) };
    };

    it('creates a task that the other instance finds at once, working, with its times, ttl and poll interval', async () => {
      const { a, b } = await instances({ ttlMs: 60_000, pollIntervalMs: 250 });
      const task = await a.create({ owner: 'alice', tool: 'export' });
      expect(isTaskId(task.taskId)).toBe(true);
      const seen = await b.snapshot(task.taskId, 'alice');
      expect(seen).toEqual({
        taskId: task.taskId,
        status: 'working',
        createdAt: task.createdAt,
        lastUpdatedAt: task.createdAt,
        ttlMs: 60_000,
        pollIntervalMs: 250,
      });
      expect((await b.record(task.taskId, 'alice'))?.tool).toBe('export');
      const ids = new Set(await Promise.all(Array.from({ length: 20 }, async () => (await a.create({ tool: 't' })).taskId)));
      expect(ids.size).toBe(20);
    });

    it('shows progress, then two questions at once; an answer on the other instance closes its key before the ack', async () => {
      const { a, b, backends } = await instances();
      const { taskId } = await a.create({ tool: 'multi' });
      // Without pub/sub across processes, the work listens on the backend the answers come through (same object).
      const { events, stop } = heard(backends[0].supportsPubSub ? a : b, taskId);
      await stop;
      await a.progress(taskId, 'Exported 12 of 18');
      expect((await b.snapshot(taskId, undefined))?.statusMessage).toBe('Exported 12 of 18');
      await a.park(taskId, [
        ['q-name', question('Name?')],
        ['q-confirm', question('Sure?')],
      ]);
      expect(await b.snapshot(taskId, undefined)).toMatchObject({
        status: 'input_required',
        inputRequests: [
          ['q-name', question('Name?')],
          ['q-confirm', question('Sure?')],
        ],
      });
      expect(
        await b.answer(taskId, undefined, {
          'q-name': { action: 'accept', content: { name: 'partial-1' } },
          'unknown-key': { ignored: true },
        }),
      ).toEqual(['q-name']);
      expect(await a.snapshot(taskId, undefined)).toMatchObject({
        status: 'input_required',
        inputRequests: [['q-confirm', question('Sure?')]],
      });
      expect(await b.answer(taskId, undefined, { 'q-confirm': { action: 'accept', content: { confirm: true } } })).toEqual(['q-confirm']);
      const after = await a.snapshot(taskId, undefined);
      expect(after?.status).toBe('working');
      expect(after?.inputRequests).toBeUndefined();
      expect(await a.answers(taskId)).toEqual(
        new Map([
          ['q-name', { action: 'accept', content: { name: 'partial-1' } }],
          ['q-confirm', { action: 'accept', content: { confirm: true } }],
        ]),
      );
      // The work's own changes (progress, the questions) are published too, for listen streams: only answers count here.
      await expect
        .poll(() => events.filter((e) => e.kind !== 'changed'))
        .toEqual([
          { kind: 'answer', keys: ['q-name'] },
          { kind: 'answer', keys: ['q-confirm'] },
        ]);
      expect(await a.settle(taskId, await a.answers(taskId, ['q-name', 'q-confirm']))).toBe(true);
      expect((await b.record(taskId, undefined))?.questions).toEqual([]);
      expect((await b.record(taskId, undefined))?.asked).toEqual(['q-name', 'q-confirm']);
      await expect(a.park(taskId, [['q-name', question('Again?')]])).rejects.toThrow(/already asked/);
      await (await stop)();
    });

    it('of two instances answering the same question at once, exactly one wins, every time', async () => {
      const { a, b } = await instances();
      for (let round = 0; round < 10; round++) {
        const { taskId } = await a.create({ tool: 'confirm' });
        await a.park(taskId, [['q', question('Delete?')]]);
        const [fromA, fromB] = await Promise.all([
          a.answer(taskId, undefined, { q: { action: 'accept', content: { by: 'a' } } }),
          b.answer(taskId, undefined, { q: { action: 'decline', content: { by: 'b' } } }),
        ]);
        expect([...fromA!, ...fromB!]).toEqual(['q']);
        const kept = (await a.answers(taskId)).get('q') as { content: { by: string } };
        expect(kept.content.by).toBe(fromA!.length === 1 ? 'a' : 'b');
        await a.finish(taskId, { status: 'completed', result: { content: [] } });
      }
    });

    it('a cancel on one instance is heard on the other, ends the task once, and the work cannot end it again', async () => {
      const { a, b, backends } = await instances();
      const { taskId } = await a.create({ owner: 'alice', tool: 'slow' });
      await a.park(taskId, [['q', question('Go on?')]]);
      // Without pub/sub across processes, the work listens on the backend the cancel is sent through (same object).
      const listener = backends[0].supportsPubSub ? a : b;
      const { events, stop } = heard(listener, taskId);
      await stop;
      expect(await b.cancel(taskId, 'alice', 'Stopped by the user')).toBe('cancelled');
      await expect.poll(() => events).toContainEqual({ kind: 'end', status: 'cancelled' });
      expect(await a.snapshot(taskId, 'alice')).toMatchObject({ status: 'cancelled', statusMessage: 'Stopped by the user' });
      expect((await a.snapshot(taskId, 'alice'))?.inputRequests).toBeUndefined();
      expect(await a.finish(taskId, { status: 'completed', result: { content: [] } })).toBe(false);
      expect(await b.cancel(taskId, 'alice')).toBe('ended');
      expect(await b.answer(taskId, 'alice', { q: { action: 'accept' } })).toEqual([]);
      expect((await a.snapshot(taskId, 'alice'))?.status).toBe('cancelled');
      await (await stop)();
    });

    it('ends once: of the work finishing on two instances and a cancel, one end is kept', async () => {
      const { a, b } = await instances();
      for (let round = 0; round < 5; round++) {
        const { taskId } = await a.create({ tool: 'job' });
        const outcomes = await Promise.all([
          a.finish(taskId, { status: 'completed', result: { content: [{ type: 'text', text: 'a' }] } }),
          b.finish(taskId, { status: 'failed', error: { code: -32603, message: 'b' }, statusMessage: 'b failed' }),
          b.cancel(taskId, undefined).then((r) => r === 'cancelled'),
        ]);
        expect(outcomes.filter(Boolean)).toHaveLength(1);
        const end = await b.snapshot(taskId, undefined);
        const winner = outcomes.indexOf(true);
        expect(end?.status).toBe(['completed', 'failed', 'cancelled'][winner]);
        if (winner === 0) expect(end?.result).toEqual({ content: [{ type: 'text', text: 'a' }] });
        if (winner === 1) expect(end).toMatchObject({ error: { code: -32603, message: 'b' }, statusMessage: 'b failed' });
      }
    });

    it('expires on its own after its ttl: unknown afterwards, and the work can no longer write it', async () => {
      const { a, b } = await instances({ ttlMs: 300 });
      const { taskId } = await a.create({ tool: 'short' });
      expect(await b.snapshot(taskId, undefined)).toBeDefined();
      await expect.poll(() => b.snapshot(taskId, undefined), { timeout: 5_000, interval: 100 }).toBeUndefined();
      expect(await a.progress(taskId, 'still here?')).toBe(false);
      expect(await b.cancel(taskId, undefined)).toBeUndefined();
      expect(await b.snapshot(taskId, undefined)).toBeUndefined();
    });

    it('ends a task whose work stopped renewing its lease failed, once, whoever reads it; work that holds it keeps it', async () => {
      const { a, b } = await instances({ leaseMs: 300 });
      const held = await a.create({ tool: 'long' });
      const orphan = await a.create({ tool: 'long' });
      const renewing = setInterval(() => void a.hold(held.taskId), 50);
      try {
        await expect
          .poll(() => b.snapshot(orphan.taskId, undefined), { timeout: 5_000, interval: 100 })
          .toMatchObject({
            status: 'failed',
            error: ORPHANED.error,
            statusMessage: ORPHANED.statusMessage,
          });
        expect((await b.snapshot(held.taskId, undefined))?.status).toBe('working');
      } finally {
        clearInterval(renewing);
      }
      // The work, back from wherever it was, learns it lost the task and cannot end it otherwise.
      expect(await a.hold(orphan.taskId)).toBe(false);
      expect(await a.finish(orphan.taskId, { status: 'completed', result: { content: [] } })).toBe(false);
      expect(await b.answer(orphan.taskId, undefined, { q: { action: 'accept' } })).toEqual([]);
      expect(await a.hold(held.taskId)).toBe(true);
    });

    it('resumes a stretch whose lease lapsed: exactly one of many readers, counted; cut past tasks.attempts, it ends failed', async () => {
      const { a, b } = await instances({ leaseMs: 1_000, attempts: 2 });
      const resumed: string[] = [];
      a.resumeWith((task) => resumed.push(`a ${task.owner}`));
      b.resumeWith((task) => resumed.push(`b ${task.owner}`));
      const { taskId } = await a.create({ owner: 'alice', tool: 'long', run: RUN });
      // Its instance died: nobody renews the lease.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      const seen = await Promise.all([a, b, a, b, a, b].map((store) => store.snapshot(taskId, 'alice')));
      expect(seen.map((task) => task?.status)).toEqual(Array(6).fill('working'));
      expect(resumed).toHaveLength(1);
      expect(resumed[0]).toMatch(/^[ab] alice$/);
      expect((await b.record(taskId, 'alice'))?.cuts).toBe(1);
      // The resumed stretch holds its lease: nobody resumes it again meanwhile.
      expect((await b.snapshot(taskId, 'alice'))?.status).toBe('working');
      expect(resumed).toHaveLength(1);
      // Cut again (tasks.attempts 2): it ends failed, once, saying so, and nothing resumes it.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      await Promise.all([a, b, a].map((store) => store.snapshot(taskId, 'alice')));
      for (const task of [await a.snapshot(taskId, 'alice'), await b.snapshot(taskId, 'alice')])
        expect(task).toMatchObject({ status: 'failed', error: cutTooOften(2).error, statusMessage: cutTooOften(2).statusMessage });
      expect(cutTooOften(2).error.message).toContain('cut 2 times');
      expect(resumed).toHaveLength(1);
      expect((await a.record(taskId, 'alice'))?.run).toBeUndefined();
    });

    it('hands a stretch over: the next read resumes it at once; a step or a question starts its count again', async () => {
      const { a, b } = await instances({ attempts: 2 });
      const resumed: string[] = [];
      b.resumeWith((task) => resumed.push(task.taskId));
      const { taskId } = await a.create({ owner: 'alice', tool: 'long', run: RUN });
      await a.handOver(taskId);
      expect((await b.snapshot(taskId, 'alice'))?.status).toBe('working');
      expect(resumed).toEqual([taskId]);
      expect((await b.record(taskId, 'alice'))?.cuts).toBe(1);
      // The resumed work recorded a step: the stretch made progress, its next cut is its first.
      expect(await b.recordStep(taskId, 'charge', { id: 'ch_1' })).toBe(true);
      expect((await b.record(taskId, 'alice'))?.cuts).toBe(0);
      await b.handOver(taskId);
      expect((await b.snapshot(taskId, 'alice'))?.status).toBe('working');
      expect(resumed).toHaveLength(2);
      // It parks at a question: parked work holds nothing and is never resumed, and the count starts again.
      await b.park(taskId, [['q', question('Go on?')]]);
      expect((await b.record(taskId, 'alice'))?.cuts).toBe(0);
      await b.handOver(taskId);
      expect((await a.snapshot(taskId, 'alice'))?.status).toBe('input_required');
      expect(resumed).toHaveLength(2);
      // The answer's claim starts the next stretch, with its lease and its token: cut, it is resumed too.
      await a.answer(taskId, 'alice', { q: { action: 'accept' } });
      expect(await a.claim(taskId, 60_000)).toBe(true);
      await a.handOver(taskId);
      expect((await b.snapshot(taskId, 'alice'))?.status).toBe('working');
      expect(resumed).toHaveLength(3);
    });

    it('at shutdown, waits for the running stretches, then hands over those left without ending their tasks', async () => {
      const { a, b } = await instances();
      const resumed: string[] = [];
      b.resumeWith((task) => resumed.push(task.taskId));
      const quick = await a.create({ tool: 'quick', run: RUN });
      const slow = await a.create({ tool: 'slow', run: RUN });
      const [one, two] = await Promise.all([quick, slow].map((task) => TaskWork.start(a, task, {})));
      setTimeout(() => void one!.finish({ status: 'completed', result: { content: [] } }), 50);
      const started = Date.now();
      await a.stretches.drain(400);
      expect(Date.now() - started).toBeGreaterThanOrEqual(350);
      expect((await b.snapshot(quick.taskId, undefined))?.status).toBe('completed');
      // The slow one's run stopped here: its signal says why, and its outcome no longer reaches the task.
      expect(two!.signal.reason).toBeInstanceOf(TaskStoppedError);
      expect((two!.signal.reason as TaskStoppedError).why).toBe('handed-over');
      expect(await two!.finish({ status: 'completed', result: { content: [] } })).toBe(false);
      await expect(two!.recordStep('late', 1)).rejects.toBeInstanceOf(TaskStoppedError);
      expect((await b.snapshot(slow.taskId, undefined))?.status).toBe('working');
      expect(resumed).toEqual([slow.taskId]);
      // Nothing runs here any more: a second shutdown has nothing to wait for.
      const again = Date.now();
      await a.stretches.drain(5_000);
      expect(Date.now() - again).toBeLessThan(1_000);
    });

    it('parks work that asks two questions at once in one write; each answer on the other instance replays it there, then it ends', async () => {
      const { a, b, published } = await instances();
      const task = await a.create({ owner: 'alice', tool: 'multi', run: RUN });
      const both = (work: TaskWork) =>
        Promise.all([
          work.ask('name', { message: 'Name?', requestedSchema: { type: 'object' } }),
          work.ask('confirm', { message: 'Sure?', requestedSchema: { type: 'object' } }),
        ]);
      const form = { elicitation: { form: {} } };
      const work = await TaskWork.start(a, task, form);
      const changes = () => published().length / 2; // a channel and a message each
      const before = changes();
      expect(await until(work, both(work))).toBe('parked');
      // One change of the record for the two questions: no reader ever sees only one of them.
      expect(changes() - before).toBe(1);
      expect((await b.snapshot(task.taskId, 'alice'))?.inputRequests?.map(([key]) => key)).toEqual(['name', 'confirm']);
      // The first answer replays the work on the instance that took it: one question answered, the other parks it again.
      expect(await b.answer(task.taskId, 'alice', { confirm: { action: 'accept', content: { confirm: true } } })).toEqual(['confirm']);
      const first = (await replayOn(b, task.taskId, 'alice', form))!;
      expect(first.known('confirm')).toEqual({ replayed: true });
      expect(first.known('name')).toBeUndefined();
      expect(await until(first, both(first))).toBe('parked');
      const record = await a.record(task.taskId, 'alice');
      expect(record?.questions.map(([key]) => key)).toEqual(['name']);
      expect(record?.asked).toEqual(['name', 'confirm']);
      // The second answer, taken on the first instance, replays it there to its end with both answers in order.
      await a.answer(task.taskId, 'alice', { name: { action: 'accept', content: { name: 'partial-2' } } });
      const last = (await replayOn(a, task.taskId, 'alice', form))!;
      expect(await until(last, both(last))).toEqual([
        { action: 'accept', content: { name: 'partial-2' } },
        { action: 'accept', content: { confirm: true } },
      ]);
      expect((await b.record(task.taskId, 'alice'))?.questions).toEqual([]);
      expect((await b.snapshot(task.taskId, 'alice'))?.status).toBe('working');
      expect(await last.finish({ status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } })).toBe(true);
      expect((await b.snapshot(task.taskId, 'alice'))?.status).toBe('completed');
    });

    it("fires the work's signal on a cancel sent to the other instance while it runs; a question after it fails with it", async () => {
      const { a, b } = await instances({ pollIntervalMs: 100 });
      const task = await a.create({ tool: 'slow', run: RUN });
      const work = await TaskWork.start(a, task, { elicitation: {} });
      try {
        expect(await b.cancel(task.taskId, undefined)).toBe('cancelled');
        await expect.poll(() => work.signal.aborted).toBe(true);
        expect(work.signal.reason).toMatchObject({ why: 'cancelled' });
        await expect(work.ask('go', { message: 'Go?' })).rejects.toBeInstanceOf(TaskStoppedError);
        expect(await work.finish({ status: 'completed', result: { content: [] } })).toBe(false);
        expect(await b.snapshot(task.taskId, undefined)).toMatchObject({ status: 'cancelled' });
        expect((await b.record(task.taskId, undefined))?.questions).toEqual([]);
      } finally {
        await work.close();
      }
      // Parked work cancelled: nothing is left to claim, and a late answer is ignored.
      const parked = await a.create({ tool: 'slow', run: RUN });
      const waiting = await TaskWork.start(a, parked, { elicitation: {} });
      expect(await until(waiting, waiting.ask('go', { message: 'Go?' }))).toBe('parked');
      expect(await b.cancel(parked.taskId, undefined)).toBe('cancelled');
      expect(await a.answer(parked.taskId, undefined, { go: { action: 'accept' } })).toEqual([]);
      expect(await a.claim(parked.taskId, 60_000)).toBe(false);
    });

    it('replays on another instance: answers given return at once, a question still open parks it again, never asked twice', async () => {
      const { a, b } = await instances();
      const task = await a.create({ tool: 'two-steps', run: RUN });
      const run = async (work: TaskWork) => [await work.ask('one', { message: 'First?' }), await work.ask('two', { message: 'Second?' })];
      const first = await TaskWork.start(a, task, { elicitation: {} });
      expect(await until(first, run(first))).toBe('parked');
      expect((await b.snapshot(task.taskId, undefined))?.status).toBe('input_required');
      await b.answer(task.taskId, undefined, { one: { action: 'accept', content: { n: 1 } } });
      const again = (await replayOn(b, task.taskId))!;
      expect(again.known('one')).toEqual({ replayed: true });
      expect(await until(again, run(again))).toBe('parked');
      expect((await a.record(task.taskId, undefined))?.questions.map(([key]) => key)).toEqual(['two']);
      // Replayed before its answer (a lapsed stretch resumed, say): the open question parks it again, not asked twice.
      const early = (await replayOn(a, task.taskId))!;
      expect(await until(early, run(early))).toBe('parked');
      const record = await b.record(task.taskId, undefined);
      expect(record?.asked).toEqual(['one', 'two']);
      expect(record?.questions.map(([key]) => key)).toEqual(['two']);
      await a.answer(task.taskId, undefined, { two: { action: 'decline' } });
      const last = (await replayOn(b, task.taskId))!;
      expect(await until(last, run(last))).toEqual([{ action: 'accept', content: { n: 1 } }, { action: 'decline' }]);
      expect(await last.finish({ status: 'completed', result: { content: [] } })).toBe(true);
    });

    it('an answer that comes while a replay runs, before it parks, is taken in there: claimed by that run, by nobody else', async () => {
      const { a, b } = await instances();
      const task = await a.create({ owner: 'alice', tool: 'late', run: RUN });
      const both = (work: TaskWork) => Promise.all([work.ask('one', { message: 'First?' }), work.ask('two', { message: 'Second?' })]);
      const first = await TaskWork.start(a, task, { elicitation: {} });
      expect(await until(first, both(first))).toBe('parked');
      await b.answer(task.taskId, 'alice', { one: { action: 'accept' } });
      const replay = (await replayOn(b, task.taskId, 'alice'))!;
      // The replay runs (it holds the claim) when 'two' is answered on the other instance: that instance cannot claim it.
      expect(await a.answer(task.taskId, 'alice', { two: { action: 'decline' } })).toEqual(['two']);
      expect(await a.claim(task.taskId, 60_000)).toBe(false);
      // The run reaches 'two': it parks, finds the answer, claims its own park and goes on in place.
      expect(await until(replay, both(replay))).toEqual([{ action: 'accept' }, { action: 'decline' }]);
      expect(replay.parked).toBe(false);
      expect(await Promise.all([a.claim(task.taskId, 60_000), b.claim(task.taskId, 60_000)])).toEqual([false, false]);
      await expect.poll(async () => (await a.record(task.taskId, 'alice'))?.questions).toEqual([]);
      expect(await replay.finish({ status: 'completed', result: { content: [] } })).toBe(true);
    });

    it("records the work's steps in its sealed record: a run on the other instance reads them, and nothing of them is readable", async () => {
      const { a, b, written } = await instances();
      const task = await a.create({ owner: 'alice', tool: 'charge' });
      const first = await TaskWork.start(a, task, { elicitation: {} });
      try {
        expect(first.stepResult('charge')).toBeUndefined();
        await first.recordStep('charge', { receipt: 'SECRET-RECEIPT' });
        await first.recordStep('nothing', undefined);
        expect(first.stepResult('charge')).toEqual({ value: { receipt: 'SECRET-RECEIPT' } });
      } finally {
        await first.close();
      }
      const record = (await b.record(task.taskId, 'alice'))!;
      expect(record.steps).toEqual([['charge', { receipt: 'SECRET-RECEIPT' }], ['nothing']]);
      const again = await TaskWork.start(b, record, { elicitation: {} });
      try {
        expect(again.stepResult('charge')).toEqual({ value: { receipt: 'SECRET-RECEIPT' } });
        expect(again.stepResult('nothing')).toEqual({});
        expect(again.stepResult('other')).toBeUndefined();
      } finally {
        await again.close();
      }
      for (const secret of ['SECRET-RECEIPT', 'charge']) expect(written().join('\n')).not.toContain(secret);
      // Once the task ended, its record keeps no step.
      await b.finish(task.taskId, { status: 'completed', result: { content: [] } });
      expect((await a.record(task.taskId, 'alice'))?.steps).toBeUndefined();
      expect((await a.snapshot(task.taskId, 'alice'))?.status).toBe('completed');
    });

    it('parks work at a question it has no answer for: nothing stays held here, a lapsed lease orphans nothing, the first claim wins', async () => {
      const { a, b, written } = await instances({ leaseMs: 60, maxTotal: 1 });
      const run = { args: { id: 'SECRET-ARG' }, auth: { user: { sub: 'alice' } }, capabilities: { elicitation: {} } };
      const task = await a.create({ owner: 'alice', tool: 'park', run, answers: [['before', { action: 'accept' }]] });
      const work = await TaskWork.start(a, task, { elicitation: {} });
      let woken = 0;
      work.onSuspend(() => woken++);
      void work.ask('q', { message: 'Sure?' });
      await expect.poll(() => work.parked).toBe(true);
      expect(woken).toBe(1);
      // The process runs it no more: its one slot (tasks.maxTotal 1) takes the next task.
      await a.create({ tool: 'next' });
      // Past the lease, nobody renews it, and the task still waits for its person.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await b.snapshot(task.taskId, 'alice')).toMatchObject({ status: 'input_required', inputRequests: [['q', expect.anything()]] });
      const record = await b.record(task.taskId, 'alice');
      expect(record?.run).toEqual(run);
      expect(record?.asked).toEqual(['before', 'q']);
      expect(await b.answers(task.taskId, ['before'])).toEqual(new Map([['before', { action: 'accept' }]]));
      expect(written().join('\n')).not.toContain('SECRET-ARG');
      // Nothing to claim before an answer is needed; after it, exactly one of many claims wins, on either instance.
      await b.answer(task.taskId, 'alice', { q: { action: 'accept', content: { confirm: true } } });
      const claims = await Promise.all([
        a.claim(task.taskId, 60_000),
        b.claim(task.taskId, 60_000),
        a.claim(task.taskId, 60_000),
        b.claim(task.taskId, 60_000),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      // The replay starts with the answer that woke it: its question leaves the record.
      const replay = await TaskWork.start(b, (await b.record(task.taskId, 'alice'))!, { elicitation: {} });
      expect((await a.record(task.taskId, 'alice'))?.questions).toEqual([]);
      expect(await replay.ask('q', { message: 'Sure?' })).toEqual({ action: 'accept', content: { confirm: true } });
      await replay.close();
      // Its end drops what its runs needed.
      await b.finish(task.taskId, { status: 'completed', result: { content: [] } });
      expect((await a.record(task.taskId, 'alice'))?.run).toBeUndefined();
      expect(await a.claim(task.taskId, 60_000)).toBe(false);
    });

    it('asks only what the creating request declared: no elicitation, no question, and no sampling', async () => {
      const { a } = await instances();
      const task = await a.create({ tool: 't' });
      const work = await TaskWork.start(a, task, {});
      try {
        await expect(work.ask('q', { message: 'Sure?' })).rejects.toBeInstanceOf(ElicitationNotSupportedError);
        await expect(work.request('s', 'sampling/createMessage', { messages: [] })).rejects.toThrow();
        expect((await a.snapshot(task.taskId, undefined))?.status).toBe('working');
      } finally {
        await work.close();
      }
    });

    it('keeps questions, answers, results, ids and owners out of what it writes (sealed at rest)', async () => {
      const { a, b, written, published } = await instances();
      const { taskId } = await a.create({ owner: 'alice@example.com', tool: 'pay' });
      await a.park(taskId, [['q-approve', question('Refund the SECRET-ORDER?')]]);
      await b.answer(taskId, 'alice@example.com', { 'q-approve': { action: 'accept', content: { note: 'SECRET-NOTE' } } });
      await a.finish(taskId, { status: 'completed', result: { content: [{ type: 'text', text: 'SECRET-RESULT' }] } });
      const all = written().join('\n');
      expect(all.length).toBeGreaterThan(0);
      for (const secret of ['DE-SECRET-IBAN', 'SECRET-ORDER', 'SECRET-NOTE', 'SECRET-RESULT', 'alice@example.com', taskId, 'q-approve'])
        expect(all).not.toContain(secret);
      // The channel says that a key was answered, never with what, nor whose task it is.
      const heardAll = published().join('\n');
      expect(heardAll).toContain('q-approve');
      for (const secret of ['SECRET-NOTE', 'SECRET-RESULT', 'alice@example.com', taskId]) expect(heardAll).not.toContain(secret);
    });

    it('opens records under a secret list (rotation) and refuses them under another secret or none', async () => {
      const { a, backends, keyPrefix } = await instances({}, ['old secret', 'old secret']);
      const { taskId } = await a.create({ tool: 't' });
      const under = (secret?: string) => new TaskStore({ backend: backends[1], keyPrefix, secret });
      expect((await under('new secret, old secret').record(taskId, undefined))?.tool).toBe('t');
      expect(await under('another secret').snapshot(taskId, undefined)).toBeUndefined();
      expect(await under(undefined).snapshot(taskId, undefined)).toBeUndefined();
    });

    it("answers another caller's task as it answers an unknown id; an anonymous task belongs to whoever holds its id", async () => {
      const { a, b } = await instances();
      const { taskId } = await a.create({ owner: 'alice', tool: 't' });
      await a.park(taskId, [['q', question('?')]]);
      for (const stranger of ['bob', undefined]) {
        expect(await b.snapshot(taskId, stranger)).toBeUndefined();
        expect(await b.record(taskId, stranger)).toBeUndefined();
        expect(await b.answer(taskId, stranger, { q: { action: 'accept' } })).toBeUndefined();
        expect(await b.cancel(taskId, stranger)).toBeUndefined();
      }
      expect((await b.snapshot(taskId, 'alice'))?.status).toBe('input_required');
      const open = await a.create({ tool: 't' });
      expect((await b.snapshot(open.taskId, 'bob'))?.status).toBe('working');
      expect(await b.list('bob')).toEqual([]);
      expect((await b.list('alice')).map((t) => t.taskId)).toEqual([taskId]);
    });

    it('caps the live tasks of a caller (a 429 LimitError with Retry-After), counts anonymous callers by address, frees a slot on end', async () => {
      const { a, b } = await instances({ maxPerOwner: 2 });
      const first = await a.create({ owner: 'alice', tool: 't' });
      await b.create({ owner: 'alice', tool: 't' });
      const refused = await a.create({ owner: 'alice', tool: 't' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(LimitError);
      expect(refused).toMatchObject({ status: 429, retryAfterSeconds: 30, data: { limit: 'tasks.maxPerCaller', max: 2 } });
      await a.create({ owner: 'bob', tool: 't' });
      await b.finish(first.taskId, { status: 'completed', result: { content: [] } });
      await a.create({ owner: 'alice', tool: 't' });
      await a.create({ tool: 't' });
      await b.create({ tool: 't' });
      await expect(a.create({ tool: 't' })).rejects.toThrow(/anonymous callers/);
      // One anonymous address at its cap leaves the others theirs, a hostile one included.
      for (const address of ['203.0.113.7', '__proto__', 'constructor']) {
        await a.create({ tool: 't', address });
        await b.create({ tool: 't', address });
        await expect(a.create({ tool: 't', address })).rejects.toThrow(/anonymous callers from this address/);
      }
    });

    it('caps the live tasks of the process (a 503 LimitError), every caller counted, and frees a slot on end', async () => {
      const { a } = await instances({ maxTotal: 2 });
      const first = await a.create({ owner: 'alice', tool: 't' });
      await a.create({ tool: 't', address: '198.51.100.1' });
      const refused = await a.create({ owner: 'bob', tool: 't' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(LimitError);
      expect(refused).toMatchObject({ status: 503, data: { limit: 'tasks.maxTotal', max: 2 } });
      await a.finish(first.taskId, { status: 'completed', result: { content: [] } });
      await a.create({ owner: 'bob', tool: 't' });
    });

    const ended = (more: Partial<TaskLimits['ended']>): Partial<TaskLimits> => ({ ended: { ...TASK_DEFAULTS.ended, ...more } });
    const endWith = async (store: TaskStore, owner: string | undefined, text = '') => {
      const { taskId } = await store.create({ ...(owner === undefined ? {} : { owner }), tool: 't' });
      await store.finish(taskId, { status: 'completed', result: { content: [{ type: 'text', text }] } });
      return taskId;
    };

    it("keeps a caller's newest ended tasks (tasks.ended.maxPerCaller): older ones are forgotten, listed or not", async () => {
      const { a, b } = await instances(ended({ maxPerCaller: 3 }));
      const ids: string[] = [];
      for (let n = 0; n < 5; n++) ids.push(await endWith(n % 2 ? a : b, 'busy'));
      const other = await endWith(a, 'calm');
      const live = await a.create({ owner: 'busy', tool: 't' });
      expect((await a.list('busy')).map((t) => t.taskId)).toEqual([...ids.slice(2), live.taskId]);
      for (const taskId of ids.slice(0, 2)) expect(await b.snapshot(taskId, 'busy')).toBeUndefined();
      expect((await b.snapshot(ids[2], 'busy'))?.status).toBe('completed');
      expect((await b.snapshot(other, 'calm'))?.status).toBe('completed');
    });

    it("keeps a caller's ended tasks within tasks.ended.maxBytesPerCaller; a result larger alone ends the task failed, saying so", async () => {
      const { a, b } = await instances(ended({ maxBytesPerCaller: 8_000 }));
      const first = await endWith(a, undefined, 'x'.repeat(2_500));
      const second = await endWith(a, undefined, 'x'.repeat(2_500));
      expect((await b.snapshot(first, undefined))?.status).toBe('completed');
      await endWith(a, undefined, 'x'.repeat(2_500));
      expect(await b.snapshot(first, undefined)).toBeUndefined();
      expect((await b.snapshot(second, undefined))?.status).toBe('completed');
      const huge = await endWith(a, undefined, 'x'.repeat(20_000));
      const failed = await b.snapshot(huge, undefined);
      expect(failed).toMatchObject({ status: 'failed', error: { code: -32603 } });
      expect(failed?.error?.message).toMatch(/tasks\.ended\.maxBytesPerCaller/);
      expect(failed?.result).toBeUndefined();
    });

    it('keeps the ended tasks of the process within tasks.ended.maxTotal and maxBytesTotal: the oldest, anyone’s, go first', async () => {
      const byNumber = await instances(ended({ maxTotal: 2 }));
      const [one, two, three] = [await endWith(byNumber.a, 'ada'), await endWith(byNumber.a, 'bob'), await endWith(byNumber.a, 'cy')];
      expect(await byNumber.b.snapshot(one, 'ada')).toBeUndefined();
      expect((await byNumber.b.snapshot(two, 'bob'))?.status).toBe('completed');
      expect((await byNumber.b.snapshot(three, 'cy'))?.status).toBe('completed');
      const byBytes = await instances(ended({ maxBytesTotal: 8_000 }));
      const big = [await endWith(byBytes.a, 'ada', 'y'.repeat(2_500)), await endWith(byBytes.a, 'bob', 'y'.repeat(2_500))];
      await endWith(byBytes.a, 'cy', 'y'.repeat(2_500));
      expect(await byBytes.b.snapshot(big[0], 'ada')).toBeUndefined();
      expect((await byBytes.b.snapshot(big[1], 'bob'))?.status).toBe('completed');
    });

    it('takes hostile ids and keys as unknown: prototype names, wrong shapes, non-strings, a valid shape never issued', async () => {
      const { a, b } = await instances();
      const { taskId } = await a.create({ tool: 't' });
      const hostile: unknown[] = [
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
        '',
        'x'.repeat(100_000),
        42,
        null,
        {},
        [taskId],
      ];
      hostile.push(`tsk_${'A'.repeat(24)}`, `${taskId} `, taskId.toUpperCase());
      for (const id of hostile) {
        expect(await b.snapshot(id, undefined)).toBeUndefined();
        expect(await b.answer(id, undefined, { q: {} })).toBeUndefined();
        expect(await b.cancel(id, undefined)).toBeUndefined();
      }
      // Keys from outside: prototype names are ordinary keys, open only when the work asked them.
      await a.park(taskId, [['__proto__', question('A key named __proto__')]]);
      const responses = JSON.parse('{"__proto__":{"action":"accept","content":{"ok":true}},"constructor":{"x":1},"toString":1}');
      expect(await b.answer(taskId, undefined, responses)).toEqual(['__proto__']);
      expect((await a.answers(taskId)).get('__proto__')).toEqual({ action: 'accept', content: { ok: true } });
      expect(({} as Record<string, unknown>).ok).toBeUndefined();
      expect((await b.snapshot(taskId, undefined))?.status).toBe('working');
    });
  });
}
