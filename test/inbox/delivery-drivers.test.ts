// The delivery rules against a real SQLite file and a real redis-server, and what each holds at rest.
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { QuestionCodec } from '../../src/inbox/codec';
import { askAndWait } from '../../src/inbox/delivery';
import { QuestionStore } from '../../src/inbox/question-store';
import { createRedisStore } from '../../src/stores/redis';
import { createSqliteStore } from '../../src/stores/sqlite';
import type { StoreBackend } from '../../src/stores';
import { storeFixture } from '../helpers/store-fixture';
import { deliverySuite, listed } from './delivery-suite';

const { file, keep, redis } = storeFixture('parley-questions-');

let files = 0;
deliverySuite('SQLite', async () => keep(await createSqliteStore({ path: file(`q${++files}.sqlite`) })));
deliverySuite('Redis', async () => keep(await createRedisStore(redis().url, {})));
deliverySuite('Redis', async () => keep(await createRedisStore(redis().url, {})), 'a-secret-for-tests');

describe('encryption at rest', () => {
  const secret = 'at-rest-secret';
  const subject = 'principal:https://idp.example#rosa';
  const message = 'Refund 900 EUR to order 7731?';

  const leave = async (backend: StoreBackend) => {
    const store = new QuestionStore(backend, new QuestionCodec('mcp:questions:at-rest:', secret));
    const params = { message, requestedSchema: { type: 'object', properties: { reason: { type: 'string' } } } };
    await expect(askAndWait(store, subject, 'refund-7731', params, { ttl: 50, ttlMs: 60_000 })).rejects.toThrow();
    const q = await listed(store, subject, 'refund-7731', false);
    await store.answer(subject, q.id, { action: 'accept', content: { reason: 'damaged in transit' }, answeredAt: 1 });
    return store;
  };
  const plaintext = ['Refund', '7731', 'rosa', 'idp.example', 'damaged', 'refund-7731', 'reason'];

  it('keeps no question, answer, subject or key in the clear in SQLite, and another secret reads nothing', async () => {
    const path = file('at-rest.sqlite');
    const backend = keep(await createSqliteStore({ path }));
    const store = await leave(backend);
    const rows = new Database(path, { readonly: true }).prepare('SELECT key, value FROM parley_store').all() as {
      key: string;
      value: string;
    }[];
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) for (const word of plaintext) expect(`${row.key} ${row.value}`).not.toContain(word);
    expect((await store.list(subject)).map((q) => q.message)).toEqual([message]);
    const other = new QuestionStore(backend, new QuestionCodec('mcp:questions:at-rest:', 'another-secret'));
    expect(await other.list(subject)).toEqual([]);
  });

  it('keeps no question, answer, subject or key in the clear in Redis', async () => {
    await leave(keep(await createRedisStore(redis().url, {})));
    const raw = new Redis(redis().port, '127.0.0.1');
    try {
      const keys = await raw.keys('mcp:questions:at-rest:*');
      expect(keys.length).toBeGreaterThan(3);
      for (const key of keys) {
        const value = (await raw.get(key)) ?? '';
        for (const word of plaintext) expect(`${key} ${value}`).not.toContain(word);
      }
    } finally {
      raw.disconnect();
    }
  });
});
