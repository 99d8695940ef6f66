// The question store at rest, over every backend against the real thing (memory, SQLite, a real redis-server, Redis
// over HTTP through the project's Upstash REST server): its three users (tasks, the inbox's questions, the older era's
// pending questions) leave no task id, subject, session id or question key in any stored key, with a secret or
// without; and a sealed value moved to another key of the same owner does not open.
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PendingQuestions } from '../../src/engine/legacy/pending';
import { TaskParts } from '../../src/engine/tasks/task-parts';
import { TaskStore } from '../../src/engine/tasks/task-store';
import { QuestionCodec } from '../../src/inbox/codec';
import { QuestionStore } from '../../src/inbox/question-store';
import { MemoryStore, type StoreBackend } from '../../src/stores';
import { createRedisStore } from '../../src/stores/redis';
import { RedisHttpStore } from '../../src/stores/redis-http';
import { createSqliteStore } from '../../src/stores/sqlite';
import { quiet } from '../helpers/pending-store';
import { storeFixture } from '../helpers/store-fixture';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';

const fixture = storeFixture('parley-questions-');
let upstash: UpstashServer;
beforeAll(async () => {
  upstash = await startUpstashServer(fixture.redis().url);
});
afterAll(async () => upstash?.close());

/** A backend, and every key it holds now (read around the backend: its own table, Redis's KEYS, a map's keys). */
interface Opened {
  backend: StoreBackend;
  keys(): Promise<string[]>;
}

const redisKeys = async (): Promise<string[]> => {
  const raw = new Redis(fixture.redis().url);
  try {
    return await raw.keys('*');
  } finally {
    raw.disconnect();
  }
};

const BACKENDS: [string, () => Promise<Opened>][] = [
  [
    'memory',
    async () => {
      const backend = new MemoryStore();
      // The map behind the memory store (private to TypeScript only): what it holds is what a heap dump shows.
      return { backend, keys: async () => [...(backend as unknown as { entries: Map<string, unknown> }).entries.keys()] };
    },
  ],
  [
    'sqlite',
    async () => {
      const path = fixture.file(`q-${crypto.randomUUID()}.sqlite`);
      const backend = fixture.keep(await createSqliteStore({ path }));
      return {
        backend,
        keys: async () => {
          const db = new Database(path, { readonly: true });
          try {
            return (db.prepare('SELECT key FROM parley_store').all() as { key: string }[]).map((row) => row.key);
          } finally {
            db.close();
          }
        },
      };
    },
  ],
  ['redis', async () => ({ backend: fixture.keep(await createRedisStore(fixture.redis().url)), keys: redisKeys })],
  ['redis-http', async () => ({ backend: fixture.keep(new RedisHttpStore({ url: upstash.url, token: upstash.token })), keys: redisKeys })],
];

const SUBJECT = 'principal:https://idp.example#nour-subject';
const SESSION = 'session-7f3a9c2e-raw-session-id';
const QUESTION_KEY = 'approve-refund-key';

for (const [name, open] of BACKENDS) {
  describe(`the question store at rest: ${name}`, () => {
    for (const secret of ['a question store secret', undefined]) {
      it(`names no task id, subject, session id or question key in a key (${secret ? 'with' : 'without'} a secret)`, async () => {
        const { backend, keys } = await open();
        const keyPrefix = `at-rest-${crypto.randomUUID().slice(0, 8)}:`;
        const home = { backend, keyPrefix, secret };
        // Tasks: a task of a caller, asked a question and answered; an anonymous one announced to a session.
        const tasks = new TaskStore(home);
        const task = await tasks.create({ owner: SUBJECT, tool: 'refund' });
        await tasks.park(task.taskId, [[QUESTION_KEY, { method: 'elicitation/create', params: { message: 'Refund?' } }]]);
        expect(await tasks.answer(task.taskId, SUBJECT, { [QUESTION_KEY]: { action: 'accept' } })).toEqual([QUESTION_KEY]);
        const other = await tasks.create({ tool: 'refund', address: '203.0.113.9' });
        await tasks.finish(other.taskId, { status: 'completed', result: { content: [] } });
        // The inbox: a question filed for a subject, answered.
        const inbox = new QuestionStore(backend, new QuestionCodec(`${keyPrefix}questions:`, secret));
        const now = Date.now();
        const filed = {
          id: 'inbox-question-id',
          key: QUESTION_KEY,
          message: 'Deploy?',
          requestedSchema: {},
          createdAt: now,
          expiresAt: now + 60_000,
        };
        await inbox.create(SUBJECT, filed);
        await inbox.setWaiter(SUBJECT, filed.id, 'waiter-token', 60_000);
        expect(await inbox.answer(SUBJECT, filed.id, { action: 'accept', answeredAt: now })).toMatchObject({ ok: true });
        // Pending questions of an older client's session, one answered through the store.
        const info = { type: backend.type, keyPrefix, supportsPubSub: backend.supportsPubSub, encrypted: secret !== undefined };
        const pending = new PendingQuestions({ backend, keyPrefix, secret, info }, quiet);
        const asked = await pending.open({ sessionId: SESSION, caller: 'c' }, 'elicit-request-id', { message: 'Sure?' }, 60_000);
        await pending.open({ sessionId: SESSION, caller: 'c' }, 'elicit-second-id', { message: 'Sure again?' }, 60_000);

        const held = (await keys()).filter((key) => key.startsWith(keyPrefix));
        expect(held.length).toBeGreaterThanOrEqual(12);
        for (const raw of [
          task.taskId,
          other.taskId,
          SUBJECT,
          'nour',
          SESSION,
          QUESTION_KEY,
          'inbox-question-id',
          'elicit-request-id',
          '203.0.113.9',
        ])
          expect(held.filter((key) => key.includes(raw))).toEqual([]);
        // The kinds stay readable, as the docs' key table says.
        for (const kind of ['task:', 'task-owner:', 'questions:q:', 'pending:'])
          expect(held.some((key) => key.startsWith(`${keyPrefix}${kind}`))).toBe(true);
        await asked.close();
      });
    }

    it('opens no sealed value moved to another key of the same owner', async () => {
      const { backend } = await open();
      const home = { backend, keyPrefix: `moved-${crypto.randomUUID().slice(0, 8)}:`, secret: 'a question store secret' };
      // A task's answer to one question, moved under another question's answer.
      const tasks = new TaskStore(home);
      const { taskId } = await tasks.create({ tool: 'refund' });
      await tasks.park(taskId, [['first', { method: 'elicitation/create', params: { message: '1?' } }]]);
      await tasks.answer(taskId, undefined, { first: { action: 'accept', content: { amount: 10 } } });
      const { records } = new TaskParts(home);
      const [from, to] = [await records.name('task', taskId, 'a\u0000first'), await records.name('task', taskId, 'a\u0000second')];
      await backend.set(to, (await backend.get(from))!, 60_000);
      expect([...(await tasks.answers(taskId, ['first', 'second'])).keys()]).toEqual(['first']);
      // An inbox answer moved to another question of the same subject.
      const codec = new QuestionCodec(`${home.keyPrefix}questions:`, home.secret);
      const inbox = new QuestionStore(backend, codec);
      const now = Date.now();
      for (const id of ['one', 'two'])
        await inbox.create(SUBJECT, { id, key: id, message: `${id}?`, requestedSchema: {}, createdAt: now, expiresAt: now + 60_000 });
      await inbox.answer(SUBJECT, 'one', { action: 'accept', answeredAt: now });
      await backend.set(await codec.key('a', SUBJECT, 'two'), (await backend.get(await codec.key('a', SUBJECT, 'one')))!, 60_000);
      expect(await inbox.takeAnswer(SUBJECT, 'two')).toBeUndefined();
      expect(await inbox.takeAnswer(SUBJECT, 'one')).toMatchObject({ action: 'accept' });
    });
  });
}
