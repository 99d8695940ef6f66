// The question store's one record shape, a thread, over every backend against the real thing (memory, SQLite with two
// connections to one file, two clients of a real redis-server, two clients of Redis over HTTP through the project's
// Upstash REST server): a thread's life on two instances (asked, answered once of many, taken in, stepped, closed,
// dropped), and the records its three users write (a task, an inbox question, an older client's pending question)
// are threads of that shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PendingQuestions } from '../../src/engine/legacy/pending';
import { TaskParts } from '../../src/engine/tasks/task-parts';
import { TaskStore } from '../../src/engine/tasks/task-store';
import { QuestionCodec } from '../../src/inbox/codec';
import { QuestionStore } from '../../src/inbox/question-store';
import {
  isThread,
  MemoryStore,
  newThread,
  QuestionKeys,
  QuestionRecords,
  QuestionSeal,
  type QuestionThread,
  QuestionThreads,
  type StoreBackend,
  type ThreadLayout,
} from '../../src/stores';
import { createRedisStore } from '../../src/stores/redis';
import { RedisHttpStore } from '../../src/stores/redis-http';
import { createSqliteStore } from '../../src/stores/sqlite';
import { quiet } from '../helpers/pending-store';
import { storeFixture } from '../helpers/store-fixture';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';

const fixture = storeFixture('parley-threads-');
let upstash: UpstashServer;
beforeAll(async () => {
  upstash = await startUpstashServer(fixture.redis().url);
});
afterAll(async () => upstash?.close());

/** Two instances' backends on one store. */
const BACKENDS: [string, () => Promise<[StoreBackend, StoreBackend]>][] = [
  [
    'memory',
    async () => {
      const one = new MemoryStore();
      return [one, one];
    },
  ],
  [
    'sqlite',
    async () => {
      const path = fixture.file(`t-${crypto.randomUUID()}.sqlite`);
      return [fixture.keep(await createSqliteStore({ path })), fixture.keep(await createSqliteStore({ path }))];
    },
  ],
  [
    'redis',
    async () => [fixture.keep(await createRedisStore(fixture.redis().url)), fixture.keep(await createRedisStore(fixture.redis().url))],
  ],
  [
    'redis-http',
    async () => [
      fixture.keep(new RedisHttpStore({ url: upstash.url, token: upstash.token })),
      fixture.keep(new RedisHttpStore({ url: upstash.url, token: upstash.token })),
    ],
  ],
];

const SECRET = 'a thread secret';
const LAYOUT: ThreadLayout = {
  record: (id) => ['thread', id],
  open: (id, key) => ['thread-open', `${id}\u0000${key}`],
  answer: (id, key) => ['thread-answer', `${id}\u0000${key}`],
};
const threadsOn = (backend: StoreBackend, keyPrefix: string, secret?: string) =>
  new QuestionThreads(new QuestionRecords(backend, new QuestionKeys(keyPrefix, secret), new QuestionSeal(secret)), LAYOUT);

type Question = { message: string };

for (const [name, open] of BACKENDS) {
  describe(`a question thread: ${name}`, () => {
    for (const secret of [SECRET, undefined]) {
      it(`lives its life on two instances: asked, answered once of many, taken in, stepped, closed (${secret ? 'sealed' : 'plain'})`, async () => {
        const [a, b] = await open();
        const keyPrefix = `thread-${crypto.randomUUID().slice(0, 8)}:`;
        const [one, two] = [threadsOn(a, keyPrefix, secret), threadsOn(b, keyPrefix, secret)];
        const now = Date.now();
        const fresh = newThread<Question>({ owner: 'carol', createdAt: now, expiresAt: now + 60_000, steps: [['charge', 'ch_1']] });
        expect(fresh).toMatchObject({ owner: 'carol', questions: [], asked: [], status: 'answered', steps: [['charge', 'ch_1']] });
        const asked = await one.ask('scope', 'id', fresh, [
          ['first', { message: 'First?' }],
          ['second', { message: 'Second?' }],
        ]);
        await one.write('scope', 'id', asked);
        await expect(one.ask('scope', 'id', asked, [['first', { message: 'Again?' }]])).rejects.toThrow(/already asked/);

        // The other instance reads the same thread, waiting on both questions.
        const read = await two.read<QuestionThread<Question>>('scope', 'id');
        expect(isThread(read)).toBe(true);
        expect(read).toMatchObject({ owner: 'carol', asked: ['first', 'second'], status: 'waiting' });
        expect(await two.waiting('scope', 'id', read!)).toEqual(asked.questions);
        expect(read!.status).toBe('waiting');

        // Ten answers to the first question, five on each instance at once: exactly one is kept.
        const tries = Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).answer('scope', 'id', 'first', { pick: i }, 60_000));
        const won = (await Promise.all(tries)).flatMap((ok, i) => (ok ? [i] : []));
        expect(won).toHaveLength(1);
        expect(await one.kept('scope', 'id', 'first')).toEqual({ pick: won[0] });
        expect(await two.waiting('scope', 'id', read!)).toEqual([['second', { message: 'Second?' }]]);
        // A claim without an answer (an answer that went elsewhere) closes the second; given back, it is open again.
        expect(await two.claim('scope', 'id', 'second')).toBe(true);
        expect(await one.waiting('scope', 'id', read!)).toEqual([]);
        await two.reopen('scope', 'id', 'second', 60_000);
        expect(await one.isOpen('scope', 'id', 'second')).toBe(true);

        // The writer takes the first answer in: its question leaves the record, its answer joins it.
        const found = await one.answers('scope', 'id', read, ['first', 'second']);
        expect(found).toEqual(new Map([['first', { pick: won[0] }]]));
        const settled = one.step(one.settle(read!, ['first'], found), 'mail', undefined);
        await one.write('scope', 'id', settled);
        const again = await two.read<QuestionThread<Question>>('scope', 'id');
        expect(again).toMatchObject({
          questions: [['second', { message: 'Second?' }]],
          answers: [['first', { pick: won[0] }]],
          steps: [['charge', 'ch_1'], ['mail']],
          status: 'waiting',
        });
        // Answers the record holds are read from it, the others from their parts.
        expect(await two.answers('scope', 'id', again, ['first'])).toEqual(new Map([['first', { pick: won[0] }]]));

        // A kept answer is taken by one caller only.
        expect(await two.answer('scope', 'id', 'second', 'yes', 60_000)).toBe(true);
        expect(await Promise.all([one.take('scope', 'id', 'second'), two.take('scope', 'id', 'second')])).toEqual(
          expect.arrayContaining(['yes', undefined]),
        );

        // Closed: no question takes an answer any more, and it says so.
        const ended = await one.close('scope', 'id', {
          ...again!,
          questions: [['late', { message: 'Late?' }]],
          asked: [...again!.asked, 'late'],
        });
        expect(ended.status).toBe('ended');
        expect(await two.waiting('scope', 'id', ended)).toEqual([]);
        expect(await two.answer('scope', 'id', 'late', 'no', 60_000)).toBe(false);

        // Dropped: nothing of it is left under any name.
        await two.drop('scope', 'id', ended);
        expect(await one.read('scope', 'id')).toBeUndefined();
        for (const key of ended.asked) {
          expect(await one.isOpen('scope', 'id', key)).toBe(false);
          expect(await one.kept('scope', 'id', key)).toBeUndefined();
        }
      });
    }

    it('is the record each of its three users writes: a task, an inbox question, a pending question', async () => {
      const [backend] = await open();
      const keyPrefix = `users-${crypto.randomUUID().slice(0, 8)}:`;
      const records = (prefix: string) => new QuestionRecords(backend, new QuestionKeys(prefix, SECRET), new QuestionSeal(SECRET));
      const request = { method: 'elicitation/create', params: { message: 'Refund?' } };

      // A task: a thread of many questions, its owner the caller.
      const tasks = new TaskStore({ backend, keyPrefix, secret: SECRET });
      const { taskId } = await tasks.create({ owner: 'carol', tool: 'refund', answers: [['before', { action: 'accept' }]] });
      await tasks.park(taskId, [
        ['one', request],
        ['two', request],
      ]);
      const task = await new TaskParts({ backend, keyPrefix, secret: SECRET }).threads.read<QuestionThread>(taskId, '');
      expect(isThread(task)).toBe(true);
      expect(task).toMatchObject({
        owner: 'carol',
        questions: [
          ['one', request],
          ['two', request],
        ],
        asked: ['before', 'one', 'two'],
        answers: [['before', { action: 'accept' }]],
        status: 'waiting',
      });
      // tasks/get's wire is as it was: its open questions as inputRequests.
      expect(await tasks.answer(taskId, 'carol', { one: { action: 'accept' } })).toEqual(['one']);
      expect(await tasks.snapshot(taskId, 'carol')).toMatchObject({ status: 'input_required', inputRequests: [['two', request]] });

      // An inbox question: a one-question thread, its owner the subject.
      const codec = new QuestionCodec(`${keyPrefix}questions:`, SECRET);
      const inbox = new QuestionStore(backend, codec);
      const now = Date.now();
      await inbox.create('subject-1', {
        id: 'q1',
        key: 'deploy',
        message: 'Deploy?',
        requestedSchema: {},
        createdAt: now,
        expiresAt: now + 60_000,
      });
      const filed = await records(`${keyPrefix}questions:`).read<QuestionThread>('q', 'subject-1', 'q1');
      expect(filed).toMatchObject({
        owner: 'subject-1',
        questions: [['deploy', { message: 'Deploy?', requestedSchema: {} }]],
        asked: ['deploy'],
        status: 'waiting',
      });
      expect(await inbox.answer('subject-1', 'q1', { action: 'accept', answeredAt: now })).toMatchObject({ ok: true });
      expect(await inbox.view('subject-1', 'q1')).toMatchObject({ key: 'deploy', message: 'Deploy?', state: 'answered' });
      await inbox.finish('subject-1', (await inbox.byId('subject-1', 'q1'))!, true);
      expect(await records(`${keyPrefix}questions:`).read<QuestionThread>('q', 'subject-1', 'q1')).toMatchObject({ status: 'ended' });
      expect(await inbox.answer('subject-1', 'q1', { action: 'decline', answeredAt: now })).toEqual({
        ok: false,
        reason: 'already-answered',
      });

      // An older client's pending question: a one-question thread, its owner the session; its first answer claims it.
      const info = { type: backend.type, keyPrefix, supportsPubSub: backend.supportsPubSub, encrypted: true };
      const [asking, other] = [
        new PendingQuestions({ backend, keyPrefix, secret: SECRET, info }, quiet),
        new PendingQuestions({ backend, keyPrefix, secret: SECRET, info }, quiet),
      ];
      const question = await asking.open({ sessionId: 'session-1', caller: 'c' }, 'e1', { message: 'Sure?' }, 60_000);
      const pending = await records(keyPrefix).read<QuestionThread>('pending', 'session-1', 'e1');
      expect(pending).toMatchObject({ owner: 'session-1', questions: [['e1', { message: 'Sure?' }]], asked: ['e1'], status: 'waiting' });
      const delivered = await Promise.all([
        other.deliver('session-1', 'e1', { action: 'accept' }),
        other.deliver('session-1', 'e1', { action: 'decline' }),
      ]);
      expect(delivered.sort()).toEqual(['delivered', 'no-question']);
      expect(await question.answer).toMatchObject({ action: expect.stringMatching(/accept|decline/) });
      await question.close();
    });
  });
}
