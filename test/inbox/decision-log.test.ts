// The decision log: its entries exact through the MCP endpoint and the inbox routes, and its append-only chain on a
// real SQLite file and a real redis-server, with two writers at once, a cap, a retention and sealing at rest.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { QuestionCodec } from '../../src/inbox/codec';
import { QuestionStore } from '../../src/inbox/question-store';
import { AppendLog } from '../../src/inbox/append-log';
import { DecisionLog } from '../../src/inbox/decision-log';
import { memoryStore, type StoreBackend } from '../../src/stores';
import { createRedisStore } from '../../src/stores/redis';
import { createSqliteStore } from '../../src/stores/sqlite';
import { read } from '../helpers/requests';
import { storeFixture } from '../helpers/store-fixture';
import { inboxServer } from './inbox-helpers';
import { createQuestionService } from '../../src/app/questions';
import { parseConfig } from '../../src/model/config';

const { file, keep, redis } = storeFixture('parley-decision-log-');
const DAY = 86_400_000;
const at = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe('the decision log through the MCP endpoint and the inbox', () => {
  const persistent = (log: unknown) => ({
    elicitation: { enabled: true, persistent: { storage: { type: 'memory' as const }, log } },
  });

  it('records the ask, each view by channel (once), the answer and who, exactly, with the addresses when configured', async () => {
    const s = inboxServer(persistent({ clientAddress: true }));
    const cookie = await s.signIn();
    const call = s.call('approve_deploy', { version: '4.0.0' });
    const q = await s.waitForQuestion(cookie, 'deploy-4.0.0');
    const get = (path: string, headers: Record<string, string> = {}) =>
      s.handler(new Request(`http://127.0.0.1${path}`, { headers: { cookie, ...headers } }), { client: '198.51.100.7' });
    await get('/_frontmcp/questions', { 'parley-channel': 'cli' });
    await get('/_frontmcp/questions', { 'parley-channel': 'cli' }); // the same person, question and channel: no second view
    const answered = await s.handler(
      new Request(`http://127.0.0.1/_frontmcp/questions/${q.id}/answer`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'parley-channel': 'page' },
        body: JSON.stringify({ action: 'accept', content: { approve: true, environment: 'staging' } }),
      }),
      { client: '198.51.100.7' },
    );
    expect(answered.status).toBe(200);
    await call;
    const { body } = await read(await get(`/_frontmcp/questions/${q.id}/log`));
    const common = { question: q.id, key: 'deploy-4.0.0', tool: 'approve_deploy', by: 'https://idp.example#dana' };
    expect(body.entries).toEqual([
      { at, event: 'asked', ...common, channel: 'call' },
      { at, event: 'viewed', ...common, channel: 'json' }, // the helper's own polling, which names no channel
      { at, event: 'viewed', ...common, channel: 'cli', address: '198.51.100.7' },
      { at, event: 'answered', ...common, channel: 'page', action: 'accept', address: '198.51.100.7' },
    ]);
    // The export: the same entries, as the CLI prints them.
    expect((await read(await get('/_frontmcp/log'))).body.entries).toEqual(body.entries);
  });

  it('records the nudge after it went, by parley through notify', async () => {
    const nudged: string[] = [];
    const s = inboxServer({
      elicitation: {
        enabled: true,
        persistent: {
          storage: { type: 'memory' as const },
          notify: async (notice: { questionId: string }) => void nudged.push(notice.questionId),
        },
      },
    });
    const cookie = await s.signIn();
    const call = s.call('approve_deploy', { version: '4.2.0', waitMs: 50 });
    await call;
    const [q] = (await s.questions(cookie)).questions;
    expect(nudged).toEqual([q.id]);
    const entries = (await read(await s.request(`/_frontmcp/questions/${q.id}/log`, { cookie }))).body.entries;
    expect(entries.map((e: { event: string; by: string; channel: string }) => [e.event, e.by, e.channel])).toEqual([
      ['asked', 'https://idp.example#dana', 'call'],
      ['nudged', 'parley', 'notify'],
      ['viewed', 'https://idp.example#dana', 'json'],
    ]);
  });

  it('keeps no address by default, and another person reads no history of the question', async () => {
    const s = inboxServer(persistent(undefined));
    const cookie = await s.signIn();
    const call = s.call('approve_deploy', { version: '4.1.0' });
    const q = await s.waitForQuestion(cookie, 'deploy-4.1.0');
    await s.post(`/_frontmcp/questions/${q.id}/answer`, { action: 'decline' }, { cookie });
    await call;
    const entries = (await read(await s.request(`/_frontmcp/questions/${q.id}/log`, { cookie }))).body.entries;
    expect(entries.map((e: { event: string; action?: string }) => [e.event, e.action])).toEqual([
      ['asked', undefined],
      ['viewed', undefined],
      ['answered', 'decline'],
    ]);
    for (const entry of entries) expect(entry).not.toHaveProperty('address');
    const other = await s.signIn('erin');
    expect((await read(await s.request(`/_frontmcp/questions/${q.id}/log`, { cookie: other }))).body.entries).toEqual([]);
  });

  it('is off with log: false, and refuses a retention under a day at startup', async () => {
    const off = inboxServer(persistent(false));
    const cookie = await off.signIn();
    expect((await off.request('/_frontmcp/log', { cookie })).status).toBe(404);
    const failure = createQuestionService(
      parseConfig({ info: { name: 's', version: '1' }, elicitation: { enabled: true, persistent: { log: { retentionMs: 60_000 } } } }),
      undefined,
      { debug() {}, info() {}, warn() {}, error() {} },
    );
    await expect(failure).rejects.toThrow(/Invalid elicitation\.persistent: log\.retentionMs: must be at least a day \(86400000 ms\)/);
  });
});

let files = 0;
const backends: [string, () => Promise<[StoreBackend, StoreBackend]>][] = [
  [
    'memory',
    async () => {
      const one = memoryStore();
      return [one, one];
    },
  ],
  [
    'SQLite',
    async () => {
      const path = file(`log${++files}.sqlite`);
      return [keep(await createSqliteStore({ path })), keep(await createSqliteStore({ path }))];
    },
  ],
  ['Redis', async () => [keep(await createRedisStore(redis().url, {})), keep(await createRedisStore(redis().url, {}))]],
];

let prefixes = 0;
describe.each(backends)('the append-only chain on %s', (_name, open) => {
  const twoInstances = async (secret?: string) => {
    const [a, b] = await open();
    const prefix = `test:log:${++prefixes}:`;
    const records = (backend: StoreBackend) => new QuestionStore(backend, new QuestionCodec(prefix, secret)).records;
    return [new AppendLog(records(a), DAY), new AppendLog(records(b), DAY)] as const;
  };

  it('keeps every entry of two instances appending at once, each once, in one order both read', async () => {
    const [one, two] = await twoInstances('a-secret-for-tests');
    await one.start('s', 'q:1', 'start');
    const writes = [
      ...Array.from({ length: 20 }, (_, i) => one.append('s', 'q:1', `a${i}`, 64)),
      ...Array.from({ length: 20 }, (_, i) => two.append('s', 'q:1', `b${i}`, 64)),
    ];
    const slots = await Promise.all(writes);
    expect(new Set(slots).size).toBe(40);
    expect(slots.every((slot) => slot !== undefined && slot >= 1 && slot <= 40)).toBe(true);
    const seen = await one.read<string>('s', 'q:1', 64);
    expect(seen).toEqual(await two.read<string>('s', 'q:1', 64));
    expect(seen[0]).toBe('start');
    expect([...seen].sort()).toEqual(['start', ...Array.from({ length: 20 }, (_, i) => [`a${i}`, `b${i}`]).flat()].sort());
  });

  it('stops at its cap: an entry past it is refused, none is overwritten', async () => {
    const [one, two] = await twoInstances();
    await one.start('s', 'q:2', 0);
    for (let i = 1; i < 4; i++) expect(await (i % 2 ? one : two).append('s', 'q:2', i, 4)).toBe(i);
    expect(await two.append('s', 'q:2', 4, 4)).toBeUndefined();
    expect(await one.read('s', 'q:2', 4)).toEqual([0, 1, 2, 3]);
  });

  it('lists a day of questions opened by whoever writes first, and exports them', async () => {
    const [a, b] = await open();
    const prefix = `test:log:${++prefixes}:`;
    const store = (backend: StoreBackend) => new QuestionStore(backend, new QuestionCodec(prefix, 'day-secret'));
    const logs = [
      new DecisionLog(store(a).records, { retentionMs: DAY, clientAddress: false }),
      new DecisionLog(store(b).records, { retentionMs: DAY, clientAddress: false }),
    ];
    const subject = 'principal:https://idp.example#rosa';
    const question = (id: string) => ({
      id,
      key: `k-${id}`,
      message: 'm',
      requestedSchema: {},
      createdAt: Date.now(),
      expiresAt: Date.now() + DAY,
    });
    await logs[0]!.asked(subject, question('q1'));
    await Promise.all([logs[1]!.asked(subject, question('q2')), logs[0]!.asked(subject, question('q3'))]);
    await logs[1]!.record(subject, question('q1'), { event: 'answered', by: 'rosa', channel: 'cli', action: 'accept' });
    const all = await logs[1]!.export(subject);
    expect(all.map((e) => [e.question, e.event]).sort()).toEqual([
      ['q1', 'answered'],
      ['q1', 'asked'],
      ['q2', 'asked'],
      ['q3', 'asked'],
    ]);
  });
});

describe('the log at rest in Redis', () => {
  it('is sealed (no key, tool, person or action in the clear) and expires after its retention', async () => {
    const backend = keep(await createRedisStore(redis().url, {}));
    const store = new QuestionStore(backend, new QuestionCodec('test:log:rest:', 'rest-secret'));
    const log = new DecisionLog(store.records, { retentionMs: 2 * DAY, clientAddress: true });
    const subject = 'principal:https://idp.example#rosa';
    const question = {
      id: 'q-rest',
      key: 'refund-7731',
      message: 'Refund?',
      requestedSchema: {},
      createdAt: Date.now(),
      expiresAt: Date.now() + DAY,
      from: { tool: 'refund_order', reason: 'persist' as const },
    };
    await log.asked(subject, question);
    await log.record(subject, question, { event: 'answered', by: 'rosa', channel: 'cli', action: 'decline' }, { address: '203.0.113.5' });
    const raw = new Redis(redis().port, '127.0.0.1');
    try {
      const keys = await raw.keys('test:log:rest:*');
      expect(keys.length).toBeGreaterThanOrEqual(4);
      for (const key of keys) {
        const value = (await raw.get(key)) ?? '';
        for (const word of ['refund', '7731', 'rosa', 'idp.example', 'decline', '203.0.113', 'q-rest'])
          expect(`${key} ${value}`).not.toContain(word);
        const ttl = await raw.pttl(key);
        expect(ttl).toBeGreaterThan(2 * DAY - 60_000);
        expect(ttl).toBeLessThanOrEqual(2 * DAY);
      }
    } finally {
      raw.disconnect();
    }
    expect((await log.history(subject, 'q-rest')).map((e) => e.address)).toEqual([undefined, '203.0.113.5']);
  });
});
