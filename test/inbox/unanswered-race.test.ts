// The 2026-07-28 dual path's race: a client's retry claims a question while the inbox answers it, on two instances
// sharing one store (memory, a real SQLite file through two connections, a real redis-server through two clients).
// Exactly one answer counts each time; the other is refused, and no answer is seen twice.
import { describe, expect, it } from 'vitest';
import { QuestionCodec } from '../../src/inbox/codec';
import { takeIfAnswered } from '../../src/inbox/delivery';
import { claimQuestion, fileQuestion } from '../../src/inbox/filing';
import { QuestionStore } from '../../src/inbox/question-store';
import { memoryStore, type StoreBackend } from '../../src/stores';
import { createRedisStore } from '../../src/stores/redis';
import { createSqliteStore } from '../../src/stores/sqlite';
import { storeFixture } from '../helpers/store-fixture';

const { file, keep, redis } = storeFixture('parley-unanswered-race-');
const params = { message: 'Deploy 9.0?', requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } } } };
const from = { tool: 'deploy', reason: 'filed-with-round' as const };
const ROUNDS = 25;

const BACKENDS: Array<[string, () => Promise<[StoreBackend, StoreBackend]>]> = [
  [
    'memory',
    async () => {
      const shared = memoryStore();
      return [shared, shared];
    },
  ],
  [
    'SQLite',
    async () => {
      const path = file('race.sqlite');
      return [keep(await createSqliteStore({ path })), keep(await createSqliteStore({ path }))];
    },
  ],
  ['Redis', async () => [keep(await createRedisStore(redis().url, {})), keep(await createRedisStore(redis().url, {}))]],
];

describe.each(BACKENDS)('the client retry and the inbox answer racing on %s', (name, open) => {
  const instances = async () => {
    const [a, b] = await open();
    const codec = () => new QuestionCodec(`race:${name}:`, 'race-secret');
    return [new QuestionStore(a, codec()), new QuestionStore(b, codec())] as const;
  };

  it('lets exactly one of them answer, and the tool sees one answer, once', async () => {
    const [retrying, inbox] = await instances();
    const wins = { client: 0, inbox: 0 };
    for (let i = 0; i < ROUNDS; i++) {
      const subject = `principal:https://idp.example#race-${name}-${i}`;
      const { id } = await fileQuestion(retrying, subject, `unanswered-${i}`, params, { ttlMs: 60_000, from });
      // Every other round the retry comes a moment later (0-3 ms), so the inbox wins some rounds too.
      const claiming = async () => {
        if (i % 2 === 0) await new Promise((r) => setTimeout(r, i % 4));
        return claimQuestion(retrying, subject, id);
      };
      const answering = () => inbox.answer(subject, id, { action: 'accept', content: { approve: true }, answeredAt: Date.now() });
      // Each starts first in turn, so both ways of losing the race are taken.
      const [claim, answered] =
        i % 2
          ? await Promise.all([claiming(), answering()])
          : await Promise.all([answering(), claiming()]).then(([a, c]) => [c, a] as const);
      // What any later call of the key could still take.
      const question = await inbox.byId(subject, id);
      const left = question ? await takeIfAnswered(inbox, subject, question) : undefined;
      if (claim === 'claimed') {
        wins.client++;
        expect(answered).toEqual({ ok: false, reason: 'already-answered' });
        expect(left).toBeUndefined();
      } else {
        wins.inbox++;
        expect(answered.ok).toBe(true);
        // The retry took the inbox answer, or found it not yet stored and was refused (`gone`): then it waits for the next call.
        const seen = (claim === 'gone' ? 0 : 1) + (left ? 1 : 0);
        expect(seen).toBe(1);
      }
    }
    expect(wins.client + wins.inbox).toBe(ROUNDS);
  });

  it('lets one of two retries of the same round claim it; the other is refused', async () => {
    const [a, b] = await instances();
    for (let i = 0; i < ROUNDS; i++) {
      const subject = `principal:https://idp.example#twice-${name}-${i}`;
      const { id } = await fileQuestion(a, subject, `unanswered-${i}`, params, { ttlMs: 60_000, from });
      const claims = await Promise.all([claimQuestion(a, subject, id), claimQuestion(b, subject, id)]);
      expect(claims.filter((c) => c === 'claimed')).toHaveLength(1);
      expect(claims.filter((c) => c === 'gone')).toHaveLength(1);
    }
  });
});
