// Records written before the question store, read after it (an upgrade with work waiting): a task (it may wait a day)
// and an older client's pending question, each written with the old naming and sealing, are found, answered, claimed
// and ended by this release; the inbox's names never changed with a secret (test/inbox/codec-rotation.test.ts).
import { describe, expect, it } from 'vitest';
import { WEB_STORE_CRYPTO } from '../../src/crypto';
import { sealRecord } from '../../src/elicitation';
import { PendingQuestions } from '../../src/engine/legacy/pending';
import { TaskStore } from '../../src/engine/tasks/task-store';
import { newTaskId } from '../../src/engine/tasks/task-record';
import { TaskParts } from '../../src/engine/tasks/task-parts';
import { QuestionCodec } from '../../src/inbox/codec';
import { QuestionStore } from '../../src/inbox/question-store';
import { isThread, MemoryStore, QuestionKeys, QuestionRecords, QuestionSeal } from '../../src/stores';
import { quiet } from '../helpers/pending-store';

const SECRET = 'a secret from before the upgrade';
const digest = (text: string) => WEB_STORE_CRYPTO.digest(text) as Promise<string>;

describe('a task written before the question store', () => {
  for (const secret of [SECRET, undefined]) {
    it(`is found, answered once, claimed once and ended by this release (${secret ? 'sealed' : 'plain'})`, async () => {
      const backend = new MemoryStore();
      const keyPrefix = 'mcp:';
      // As releases before it wrote a parked task: `task:<SHA-256 of the id>:<part>`, a question's parts
      // `:<SHA-256 of its key>`, values `{"__encrypted": …}` sealed with the storage key as the owner.
      const taskId = newTaskId();
      const name = async (part: string, key?: string) =>
        `${keyPrefix}task:${await digest(`task\u0000${taskId}`)}:${part}${key === undefined ? '' : `:${await digest(key)}`}`;
      const seal = async (value: unknown, key: string) =>
        secret === undefined
          ? JSON.stringify(value)
          : JSON.stringify({ __encrypted: await WEB_STORE_CRYPTO.seal(secret, key, value, 'parley task store v1') });
      const now = Date.now();
      const question = { method: 'elicitation/create', params: { message: 'Refund 40 EUR?' } } as const;
      const record = {
        taskId,
        owner: 'carol',
        tool: 'refund',
        inputRequests: [['approve', question]],
        asked: ['approve'],
        steps: [['charge', { id: 'ch_1' }]],
        run: { args: {}, auth: { user: { sub: 'carol' } }, capabilities: {} },
        cuts: 0,
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: 86_400_000,
        pollIntervalMs: 1000,
      };
      await backend.set(await name('r'), await seal(record, await name('r')), 86_400_000);
      for (const part of ['l', 'p']) await backend.set(await name(part), '1', 86_400_000);
      await backend.set(await name('q', 'approve'), '1', 86_400_000);

      const [one, two] = [new TaskStore({ backend, keyPrefix, secret }), new TaskStore({ backend, keyPrefix, secret })];
      expect(await one.snapshot(taskId, 'carol')).toMatchObject({ status: 'input_required', inputRequests: [['approve', question]] });
      expect(await one.snapshot(taskId, 'mallory')).toBeUndefined();
      // Two instances answer at once: the old open token is taken once.
      const answered = await Promise.all([
        one.answer(taskId, 'carol', { approve: { action: 'accept' } }),
        two.answer(taskId, 'carol', { approve: { action: 'decline' } }),
      ]);
      expect(answered.flat()).toEqual(['approve']);
      expect((await one.answers(taskId)).get('approve')).toMatchObject({ action: answered[0]!.length ? 'accept' : 'decline' });
      // The old claim token is taken once; the record (now rewritten under the new name) keeps its steps.
      expect(await Promise.all([one.claim(taskId, 60_000), two.claim(taskId, 60_000)])).toEqual(expect.arrayContaining([true, false]));
      await one.recordStep(taskId, 'mail', 'sent');
      expect((await two.record(taskId, 'carol'))?.steps).toEqual([
        ['charge', { id: 'ch_1' }],
        ['mail', 'sent'],
      ]);
      // The old live token ends it, once.
      expect(await one.finish(taskId, { status: 'completed', result: { content: [] } })).toBe(true);
      expect(await two.finish(taskId, { status: 'failed', error: { code: -1, message: 'late' } } as never)).toBe(false);
      expect(await two.snapshot(taskId, 'carol')).toMatchObject({ status: 'completed' });
    });
  }
});

describe('a task this release created', () => {
  it('is never looked for under the names of the releases before, on the instance that created it or another', async () => {
    const memory = new MemoryStore();
    const looked: string[] = [];
    const backend = Object.assign(Object.create(memory) as MemoryStore, {
      get: (key: string) => (looked.push(key), memory.get(key)),
      take: (key: string) => (looked.push(key), memory.take(key)),
      delete: (key: string) => (looked.push(key), memory.delete(key)),
    });
    const keyPrefix = 'mcp:';
    const [one, two] = [new TaskStore({ backend, keyPrefix, secret: SECRET }), new TaskStore({ backend, keyPrefix, secret: SECRET })];
    const run = { args: {}, auth: { user: { sub: 'carol' } }, capabilities: {} };
    const { taskId } = await one.create({ owner: 'carol', tool: 'refund', run });
    const question = { method: 'elicitation/create', params: { message: 'Refund 40 EUR?' } };
    expect(await one.park(taskId, [['approve', question]])).toBe(true);
    expect(await two.snapshot(taskId, 'carol')).toMatchObject({ status: 'input_required' });
    expect(await two.answer(taskId, 'carol', { approve: { action: 'accept' } })).toEqual(['approve']);
    expect(await two.claim(taskId, 60_000)).toBe(true);
    expect(await two.answers(taskId)).toEqual(new Map([['approve', { action: 'accept' }]]));
    expect(await two.finish(taskId, { status: 'completed', result: { content: [] } })).toBe(true);
    expect(await one.snapshot(taskId, 'carol')).toMatchObject({ status: 'completed' });
    const legacy = `${keyPrefix}task:${await digest(`task\u0000${taskId}`)}:`;
    expect(looked.length).toBeGreaterThan(10);
    expect(looked.filter((key) => key.startsWith(legacy))).toEqual([]);
  });
});

describe("an older client's pending question written before the question store", () => {
  it('is answered by this release on the channel the asking instance of the older release listens on', async () => {
    const backend = new MemoryStore();
    const now = Date.now();
    // As releases before it wrote the question: `pending:<session id>:<request id>`, sealRecord's value.
    const sealed = await sealRecord(
      { sessionId: 's-old', elicitId: 'e-old', createdAt: now, expiresAt: now + 60_000, params: { message: 'Sure?' } },
      SECRET,
    );
    await backend.set('mcp:pending:s-old:e-old', sealed, 60_000);
    const heard: string[] = [];
    await backend.subscribe('mcp:result:e-old', (message) => heard.push(message));
    const store = {
      backend,
      keyPrefix: 'mcp:',
      secret: SECRET,
      info: { type: 'memory', keyPrefix: 'mcp:', supportsPubSub: false, encrypted: true },
    };
    const pending = new PendingQuestions(store, quiet);
    expect(await pending.deliver('s-old', 'e-old', { action: 'accept', content: { sure: true } })).toBe('delivered');
    expect(await pending.deliver('s-other', 'e-old', { action: 'accept' })).toBe('no-question');
    // The older release's subscriber opens it as it always did.
    expect(heard).toHaveLength(1);
    const { openRecord } = await import('../../src/elicitation');
    expect(await openRecord(heard[0]!, SECRET)).toMatchObject({ ok: true, record: { elicitId: 'e-old', answer: { action: 'accept' } } });
  });
});

// Records the release before threads wrote under the question store's names, in their own shapes (an instance of that
// release on the same store during a rolling deploy): each is read as the thread it is, answered once and ended.
describe('records written by the release before threads', () => {
  for (const secret of [SECRET, undefined]) {
    it(`a task's record with inputRequests is read, answered once, taken in and ended (${secret ? 'sealed' : 'plain'})`, async () => {
      const backend = new MemoryStore();
      const home = { backend, keyPrefix: 'mcp:', secret };
      const taskId = newTaskId();
      const now = Date.now();
      const question = { method: 'elicitation/create', params: { message: 'Refund 40 EUR?' } } as const;
      const { records } = new TaskParts(home);
      // As that release wrote a parked task: its record (no status, no thread), its live and claim tokens, the open token.
      const previous = {
        taskId,
        owner: 'carol',
        tool: 'refund',
        inputRequests: [['approve', question]],
        asked: ['approve'],
        steps: [['charge', { id: 'ch_1' }]],
        run: { args: {}, auth: { user: { sub: 'carol' } }, capabilities: {} },
        cuts: 0,
        keyed: true,
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: 86_400_000,
        pollIntervalMs: 1000,
      };
      await records.put('task', taskId, 'r', previous, 86_400_000);
      for (const part of ['l', 'p', 'q\u0000approve']) await records.mark('task', taskId, part, 86_400_000);

      const [one, two] = [new TaskStore(home), new TaskStore(home)];
      expect(await one.snapshot(taskId, 'carol')).toMatchObject({ status: 'input_required', inputRequests: [['approve', question]] });
      expect(await one.record(taskId, 'carol')).toMatchObject({ owner: 'carol', questions: [['approve', question]], status: 'waiting' });
      const answered = await Promise.all([
        one.answer(taskId, 'carol', { approve: { action: 'accept' } }),
        two.answer(taskId, 'carol', { approve: { action: 'decline' } }),
      ]);
      expect(answered.flat()).toEqual(['approve']);
      expect(await Promise.all([one.claim(taskId, 60_000), two.claim(taskId, 60_000)])).toEqual(expect.arrayContaining([true, false]));
      // Taken in: the record is rewritten as a thread, its steps kept, the answer in it.
      expect(await one.settle(taskId, await one.answers(taskId, ['approve']))).toBe(true);
      const thread = await two.record(taskId, 'carol');
      expect(isThread(thread)).toBe(true);
      expect(thread).toMatchObject({ questions: [], asked: ['approve'], steps: [['charge', { id: 'ch_1' }]], status: 'answered' });
      expect(thread?.answers).toEqual([['approve', { action: answered[0]!.length ? 'accept' : 'decline' }]]);
      expect(await one.finish(taskId, { status: 'completed', result: { content: [] } })).toBe(true);
      expect(await two.snapshot(taskId, 'carol')).toMatchObject({ status: 'completed' });
    });

    it(`an inbox question kept as itself is listed, answered once and delivered (${secret ? 'sealed' : 'plain'})`, async () => {
      const backend = new MemoryStore();
      const codec = new QuestionCodec('mcp:questions:', secret);
      const now = Date.now();
      const previous = { id: 'q-old', key: 'deploy', message: 'Deploy?', requestedSchema: {}, createdAt: now, expiresAt: now + 60_000 };
      // As that release filed it: the question itself under `q`, its key's id under `k`, the open token, the index.
      const records = codec.records(backend);
      await records.put('q', 'sub', 'q-old', previous, 60_000);
      await records.put('k', 'sub', 'deploy', 'q-old', 60_000);
      await records.mark('o', 'sub', 'q-old', 60_000);
      await records.put('i', 'sub', '', ['q-old'], 60_000);

      const [one, two] = [new QuestionStore(backend, codec), new QuestionStore(backend, codec)];
      expect(await one.list('sub')).toMatchObject([{ id: 'q-old', key: 'deploy', message: 'Deploy?', state: 'open' }]);
      expect(await two.byKey('sub', 'deploy')).toEqual(previous);
      const outcomes = await Promise.all([
        one.answer('sub', 'q-old', { action: 'accept', answeredAt: now }),
        two.answer('sub', 'q-old', { action: 'decline', answeredAt: now }),
      ]);
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      expect(await one.view('sub', 'q-old')).toMatchObject({ state: 'answered' });
      expect(await two.takeAnswer('sub', 'q-old')).toMatchObject({ action: expect.stringMatching(/accept|decline/) });
      await two.finish('sub', previous);
      expect(await one.list('sub')).toEqual([]);
    });
  }

  it("an older client's pending question kept as itself (no open token) is answered on the channel its asker listens on", async () => {
    const backend = new MemoryStore();
    const now = Date.now();
    const store = {
      backend,
      keyPrefix: 'mcp:',
      secret: SECRET,
      info: { type: 'memory', keyPrefix: 'mcp:', supportsPubSub: false, encrypted: true },
    };
    // As that release asked it: the question itself under the question store's names, no open token.
    const records = new QuestionRecords(backend, new QuestionKeys('mcp:', SECRET), new QuestionSeal(SECRET));
    const previous = { sessionId: 's-prev', elicitId: 'e-prev', createdAt: now, expiresAt: now + 60_000, params: { message: 'Sure?' } };
    await records.put('pending', 's-prev', 'e-prev', previous, 60_000);
    const heard: string[] = [];
    await backend.subscribe(await records.name('result', 's-prev', 'e-prev'), (message) => heard.push(message));
    const pending = new PendingQuestions(store, quiet);
    expect(await pending.deliver('s-prev', 'e-prev', { action: 'accept', content: { sure: true } })).toBe('delivered');
    expect(await pending.deliver('s-other', 'e-prev', { action: 'accept' })).toBe('no-question');
    expect(heard).toHaveLength(1);
    expect(await records.sealing.open(heard[0], 's-prev', await records.name('result', 's-prev', 'e-prev'))).toMatchObject({
      elicitId: 'e-prev',
      answer: { action: 'accept' },
    });
  });
});
