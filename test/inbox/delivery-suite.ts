// The delivery rules of persistent questions, as one suite body that runs against each store backend.
import { describe, expect, it } from 'vitest';
import { QuestionCodec } from '../../src/inbox/codec';
import { askAndWait } from '../../src/inbox/delivery';
import { QuestionPendingError, QuestionSupersededError } from '../../src/protocol/question-errors';
import { QuestionStore } from '../../src/inbox/question-store';
import type { StoreBackend } from '../../src/stores';

const params = (message = 'Deploy 1.2?') => ({
  message,
  requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] },
});
const approve = { action: 'accept' as const, content: { approve: true }, answeredAt: 0 };
let n = 0;

/** Waits until the subject's list shows the question of a key (a call registered it), and returns it. */
export async function listed(store: QuestionStore, subject: string, key: string, waiting = true) {
  for (let i = 0; i < 200; i++) {
    const found = (await store.list(subject)).find((q) => q.key === key && (!waiting || q.waiting));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`question ${key} never listed`);
}

export function deliverySuite(name: string, open: () => Promise<StoreBackend>, secret?: string) {
  describe(`delivery rules on ${name}${secret ? ' (encrypted)' : ''}`, () => {
    const setup = async () => {
      const store = new QuestionStore(await open(), new QuestionCodec(`test:${name}:${++n}:`, secret));
      return { store, subject: `principal:https://idp.example#user-${n}`, key: `deploy-${n}` };
    };

    it('hands the answer to the call that waits for it', async () => {
      const { store, subject, key } = await setup();
      const call = askAndWait(store, subject, key, params(), { ttl: 10_000, ttlMs: 60_000, pollMs: 50 });
      const q = await listed(store, subject, key);
      expect(await store.answer(subject, q.id, approve)).toEqual({ ok: true, waiting: true });
      await expect(call).resolves.toEqual({ action: 'accept', content: { approve: true } });
      expect(await store.list(subject)).toEqual([]);
    });

    it('fails a call that stopped waiting with QuestionPendingError, and gives the answer to the next call of the key', async () => {
      const { store, subject, key } = await setup();
      const first = askAndWait(store, subject, key, params(), { ttl: 150, ttlMs: 60_000, pollMs: 50 });
      await expect(first).rejects.toBeInstanceOf(QuestionPendingError);
      await expect(first).rejects.toMatchObject({ statusCode: 408, code: 'QUESTION_PENDING' });
      const q = await listed(store, subject, key, false);
      expect(q).toMatchObject({ state: 'open', waiting: false });
      expect(await store.answer(subject, q.id, approve)).toEqual({ ok: true, waiting: false });
      expect((await store.list(subject))[0]).toMatchObject({ state: 'answered' });
      await expect(askAndWait(store, subject, key, params(), { ttl: 10_000, ttlMs: 60_000 })).resolves.toEqual({
        action: 'accept',
        content: { approve: true },
      });
      expect(await store.list(subject)).toEqual([]);
    });

    it('lets a newer call of the same key take over: the older fails with QuestionSupersededError', async () => {
      const { store, subject, key } = await setup();
      const older = askAndWait(store, subject, key, params(), { ttl: 10_000, ttlMs: 60_000, pollMs: 50 });
      const q = await listed(store, subject, key);
      const newer = askAndWait(store, subject, key, params(), { ttl: 10_000, ttlMs: 60_000, pollMs: 50 });
      await expect(older).rejects.toBeInstanceOf(QuestionSupersededError);
      expect((await store.list(subject)).map((v) => v.id)).toEqual([q.id]);
      await store.answer(subject, q.id, { action: 'decline', answeredAt: 0 });
      await expect(newer).resolves.toEqual({ action: 'decline', content: undefined });
    });

    it('hands each answer to one call only, and accepts one answer only', async () => {
      const { store, subject, key } = await setup();
      await expect(askAndWait(store, subject, key, params(), { ttl: 100, ttlMs: 60_000 })).rejects.toBeInstanceOf(QuestionPendingError);
      const q = await listed(store, subject, key, false);
      const [a, b] = await Promise.all([
        store.answer(subject, q.id, approve),
        store.answer(subject, q.id, { ...approve, content: { approve: false } }),
      ]);
      expect([a.ok, b.ok].sort()).toEqual([false, true]);
      expect([a, b].find((o) => !o.ok)).toEqual({ ok: false, reason: 'already-answered' });
      const takers = await Promise.allSettled(
        [0, 1, 2].map(() => askAndWait(store, subject, key, params(), { ttl: 300, ttlMs: 60_000, pollMs: 50 })),
      );
      expect(takers.filter((t) => t.status === 'fulfilled')).toHaveLength(1);
      for (const t of takers) if (t.status === 'rejected') expect(t.reason).toBeInstanceOf(Error);
      expect(await store.takeAnswer(subject, q.id)).toBeUndefined();
    });

    it('keeps subjects apart: another subject finds neither the question nor its id', async () => {
      const { store, subject, key } = await setup();
      await expect(askAndWait(store, subject, key, params(), { ttl: 50, ttlMs: 60_000 })).rejects.toBeInstanceOf(QuestionPendingError);
      const q = await listed(store, subject, key, false);
      const other = `${subject}-other`;
      expect(await store.list(other)).toEqual([]);
      expect(await store.answer(other, q.id, approve)).toEqual({ ok: false, reason: 'not-found' });
      expect(await store.byKey(other, key)).toBeUndefined();
    });

    it('stops waiting when the call is cancelled', async () => {
      const { store, subject, key } = await setup();
      const abort = new AbortController();
      const call = askAndWait(store, subject, key, params(), { ttl: 10_000, ttlMs: 60_000, signal: abort.signal });
      await listed(store, subject, key);
      abort.abort();
      await expect(call).rejects.toBeInstanceOf(QuestionPendingError);
      expect((await store.list(subject))[0]).toMatchObject({ waiting: false });
    });
  });
}
