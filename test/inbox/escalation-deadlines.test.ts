// The deadlines of an addressed question, at their edges: the options checked (each wrong one named), who may decide
// by the clock (a step is in force from its very millisecond), Node's timers under fake time (not a millisecond early,
// once, a deadline longer than a timer's longest wait), and the due set of an edge runtime on Redis over HTTP (the
// Upstash protocol in front of a real redis-server): fired by whichever sweep finds it due, once across two instances.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { addresseesAt, escalationOf, readAddressing } from '../../src/inbox/addressees';
import { QuestionCodec } from '../../src/inbox/codec';
import { DueNudges } from '../../src/inbox/due-nudges';
import { Escalations, readDeadlines } from '../../src/inbox/escalation';
import { createNotify } from '../../src/inbox/notify';
import type { InboxNotice } from '../../src/inbox/notify-options';
import { readPersistentOptions } from '../../src/inbox/options';
import { QuestionStore, type StoredAnswer, type StoredQuestion } from '../../src/inbox/question-store';
import { QuestionService } from '../../src/inbox/service';
import { InvalidInputError } from '../../src/protocol';
import { memoryStore, type StoreBackend } from '../../src/stores';
import { redisHttpStore } from '../../src/stores/redis-http';
import { type RunningRedis, startRedis } from '../helpers/redis';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';

/** What the service reads of elicit()'s options, its deadlines' part included (as where people sign in at a provider). */
const read = (options: Record<string, unknown>, ttlMs: number) =>
  readAddressing(options, options.to !== undefined ? readDeadlines(options, ttlMs) : undefined);

const DAVE = [{ subject: 'dave' }];
const FINANCE = [{ group: 'finance' }];
const OWNER = 'principal:https://idp.example#alice';

const refusal = (options: Record<string, unknown>, ttlMs = 10_000) => {
  try {
    read(options, ttlMs);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('escalate and expire, checked where written', () => {
  it.each([
    [{ escalate: [{ afterMs: 0, to: DAVE }] }, 'escalate[0].afterMs must be a positive number of milliseconds (got 0)'],
    [{ escalate: [{ afterMs: -1, to: DAVE }] }, 'escalate[0].afterMs must be a positive number of milliseconds (got -1)'],
    [{ escalate: [{ afterMs: Number.NaN, to: DAVE }] }, 'escalate[0].afterMs must be a positive number of milliseconds (got null)'],
    [{ escalate: [{ afterMs: Number.POSITIVE_INFINITY, to: DAVE }] }, 'escalate[0].afterMs must be a positive number'],
    [{ escalate: [{ afterMs: '1000', to: DAVE }] }, 'escalate[0].afterMs must be a positive number of milliseconds (got "1000")'],
    [{ escalate: [{ to: DAVE }] }, 'escalate[0].afterMs must be a positive number of milliseconds (got nothing)'],
    [
      { escalate: [{ afterMs: 10_000, to: DAVE }] },
      'escalate[0].afterMs (10000) must come before the question expires from the store (persist.ttlMs: 10000)',
    ],
    [{ escalate: [{ afterMs: 1_000, to: [] }] }, 'escalate[0].to must list 1-20 addressees'],
    [{ escalate: [{ afterMs: 1_000, to: [{ subject: 'dave', group: 'x' }] }] }, 'escalate[0].to: an addressee names exactly one'],
    [{ escalate: [{ afterMs: 1_000, to: DAVE, quorum: 2 }] }, 'escalate[0] is { afterMs, to }'],
    [{ escalate: [] }, 'escalate must list 1-5 steps'],
    [
      {
        escalate: [
          { afterMs: 1_000, to: DAVE },
          { afterMs: 1_000, to: DAVE },
        ],
      },
      'escalate[1].afterMs (1000) must come after the deadline before it (1000)',
    ],
    [{ expire: { afterMs: 2_000, reason: 'a\nb' } }, 'expire.reason must be 1-500 characters'],
    [{ expire: { afterMs: 2_000, why: 'x' } }, 'expire is { afterMs, reason? }'],
    [
      { escalate: [{ afterMs: 3_000, to: DAVE }], expire: { afterMs: 3_000 } },
      'expire.afterMs (3000) must come after the deadline before it (3000)',
    ],
    [{ expire: { afterMs: 20_000 } }, 'expire.afterMs (20000) must come before the question expires from the store'],
  ])('%j is refused: %s', (options, message) => {
    expect(refusal({ to: FINANCE, ...options })).toContain(message);
  });

  it('needs `to`, and counts the people of the escalation toward what a quorum can reach', () => {
    expect(refusal({ escalate: [{ afterMs: 1_000, to: DAVE }] })).toBe(
      'escalate is about the decisions of addressees: name them with `to`',
    );
    expect(refusal({ expire: { afterMs: 1_000 } })).toBe('expire is about the decisions of addressees: name them with `to`');
    const two = { to: [{ subject: 'bob' }], escalate: [{ afterMs: 1_000, to: DAVE }] };
    expect(read({ ...two, quorum: 2 }, 10_000)?.quorum).toBe(2);
    expect(refusal({ ...two, quorum: 3 })).toBe('quorum 3 needs more accepts than the 2 people named in to and escalate');
  });

  it('keeps what it read, with a default reason that says the time', () => {
    expect(read({ to: FINANCE, escalate: [{ afterMs: 60_000, to: DAVE }], expire: { afterMs: 7_200_000 } }, 86_400_000)).toEqual({
      to: FINANCE,
      quorum: 1,
      declines: 1,
      escalate: [{ afterMs: 60_000, to: DAVE }],
      expire: { afterMs: 7_200_000, reason: 'Nobody decided within 2 h: the question expired' },
    });
    expect(read({ to: FINANCE }, 10_000)).toEqual({ to: FINANCE, quorum: 1, declines: 1 });
  });
});

describe('who may decide, by the clock', () => {
  const addressed = read(
    {
      to: FINANCE,
      escalate: [
        { afterMs: 1_000, to: DAVE },
        { afterMs: 2_000, to: [{ group: 'cfo' }] },
      ],
    },
    10_000,
  )!;
  it('adds each step from its very millisecond, never before', () => {
    expect(addresseesAt(addressed, 5_000, 5_999)).toEqual(FINANCE);
    expect(escalationOf(addressed, 5_000, 5_999)).toBeUndefined();
    expect(addresseesAt(addressed, 5_000, 6_000)).toEqual([...FINANCE, ...DAVE]);
    expect(escalationOf(addressed, 5_000, 6_999)).toEqual({ at: 6_000, to: DAVE });
    expect(addresseesAt(addressed, 5_000, 7_000)).toEqual([...FINANCE, ...DAVE, { group: 'cfo' }]);
    expect(escalationOf(addressed, 5_000, 7_000)).toEqual({ at: 7_000, to: [{ group: 'cfo' }] });
  });
});

/** A question filed now for finance, with these deadlines, kept `ttlMs`. */
function questionOf(options: Record<string, unknown>, ttlMs = 10_000, id = crypto.randomUUID()): StoredQuestion {
  const now = Date.now();
  const addressed = read({ to: FINANCE, ...options }, ttlMs)!;
  return {
    id,
    key: `k-${id}`,
    message: 'Refund?',
    requestedSchema: { type: 'object', properties: {} },
    createdAt: now,
    expiresAt: now + ttlMs,
    addressed,
  };
}

/** Escalations on a real question store, with what the service would do recorded. */
function deadlinesOn(backend: StoreBackend, due?: DueNudges) {
  const store = new QuestionStore(backend, new QuestionCodec('test:escalation:', 'an-escalation-test-secret'));
  const done: string[] = [];
  const answers: StoredAnswer[] = [];
  // The service's part, as QuestionService does it, with what it logs and nudges recorded.
  const service = {
    store,
    log: {
      record: async (_owner: string, _question: unknown, what: { event: string; to?: unknown }) =>
        void done.push(what.to ? `${what.event} ${JSON.stringify(what.to)}` : what.event),
    },
    notify: async () => void done.push('nudged'),
    note: async (write: Promise<void> | undefined) => write,
    notifyLogged: <T>(notify: T) => notify,
    answerOne: async (owner: string, question: StoredQuestion, answer: StoredAnswer) => (
      answers.push(answer), store.answer(owner, question.id, answer)
    ),
    ...(due ? { dueNudges: due } : {}),
  };
  const deadlines = new Escalations(service as unknown as ConstructorParameters<typeof Escalations>[0]);
  return { store, deadlines, done, answers };
}

/**
 * Lets a fired deadline finish: its store work (HMAC names, AES-GCM seals) resolves outside the microtasks fake time
 * flushes. Turns of the event loop until `check` holds, for up to 2 s of real time (200 ms for a check that must stay
 * false); `performance` is not faked.
 */
const settled = async (check?: () => boolean) => {
  const end = performance.now() + (check ? 2_000 : 200);
  while (performance.now() < end && !check?.()) await new Promise((r) => setImmediate(r));
};

describe("Node's timers, under fake time", () => {
  beforeAll(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterAll(() => void vi.useRealTimers());

  it('escalates at the deadline and not a millisecond before, expires at the expiry with the reason, each once', async () => {
    const { store, deadlines, done, answers } = deadlinesOn(memoryStore());
    const question = questionOf({ escalate: [{ afterMs: 1_000, to: DAVE }], expire: { afterMs: 3_000, reason: 'Too late' } });
    await store.create(OWNER, question);
    await deadlines.schedule(OWNER, question);
    await vi.advanceTimersByTimeAsync(999);
    await settled();
    expect(done).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await settled(() => done.length === 2);
    expect(done).toEqual(['escalated [{"subject":"dave"}]', 'nudged']);
    await vi.advanceTimersByTimeAsync(1_999);
    await settled();
    expect(answers).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await settled(() => done.length === 3);
    expect(answers).toEqual([{ action: 'cancel', answeredAt: Date.now(), reason: 'Too late', decisions: [] }]);
    expect(done).toEqual(['escalated [{"subject":"dave"}]', 'nudged', 'expired']);
    // A later call of its key, or a decision, catches up on nothing more: each deadline's token is gone.
    await deadlines.catchUp(OWNER, question);
    expect(done).toHaveLength(3);
    expect(await store.takeAnswer(OWNER, question.id)).toMatchObject({ action: 'cancel', reason: 'Too late' });
  });

  it('does nothing for a question answered before its deadline', async () => {
    const { store, deadlines, done, answers } = deadlinesOn(memoryStore());
    const question = questionOf({ escalate: [{ afterMs: 1_000, to: DAVE }], expire: { afterMs: 2_000 } });
    await store.create(OWNER, question);
    await deadlines.schedule(OWNER, question);
    await store.answer(OWNER, question.id, { action: 'accept', content: {}, answeredAt: Date.now() });
    await vi.advanceTimersByTimeAsync(5_000);
    await settled();
    expect(done).toEqual([]);
    expect(answers).toEqual([]);
  });

  it('waits out a deadline longer than a timer can (Node fires one over 2^31 - 1 ms at once)', async () => {
    const DAY = 86_400_000;
    const { store, deadlines, done } = deadlinesOn(memoryStore());
    const question = questionOf({ escalate: [{ afterMs: 30 * DAY, to: DAVE }] }, 40 * DAY);
    await store.create(OWNER, question);
    await deadlines.schedule(OWNER, question);
    await vi.advanceTimersByTimeAsync(2 ** 31 + 1_000);
    await settled();
    expect(done).toEqual([]);
    await vi.advanceTimersByTimeAsync(30 * DAY - 2 ** 31 - 1_000);
    await settled(() => done.length === 2);
    expect(done).toEqual(['escalated [{"subject":"dave"}]', 'nudged']);
  });
});

describe('the due set of an edge runtime, on Redis over HTTP', () => {
  let redis: RunningRedis;
  let upstash: UpstashServer;
  const opened: StoreBackend[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    upstash = await startUpstashServer(redis.url);
  });
  afterEach(async () => void (await Promise.all(opened.splice(0).map((b) => b.close()))));
  afterAll(async () => {
    await upstash?.close();
    await redis?.stop();
  });

  /** One instance of the server: its question service on the shared store, with the due set and a nudge that records. */
  function instance(notices: InboxNotice[]): QuestionService {
    const backend = redisHttpStore({ url: upstash.url, token: upstash.token });
    opened.push(backend);
    const store = new QuestionStore(backend, new QuestionCodec('test:escalation-edge:', 'an-escalation-test-secret'));
    const service = new QuestionService(store, readPersistentOptions(true)!, undefined);
    service.dueNudges = new DueNudges(store);
    service.deadlines = new Escalations(service);
    const logger = { debug() {}, info() {}, warn() {}, error() {} };
    service.notify = createNotify((notice) => void notices.push(notice), { server: 'edge', logger, origin: () => undefined });
    return service;
  }

  it('fires each deadline by whichever sweep finds it due, once across two instances; the expiry answers cancel', async () => {
    const notices: InboxNotice[] = [];
    const [a, b] = [instance(notices), instance(notices)];
    const question = questionOf(
      { escalate: [{ afterMs: 600, to: DAVE }], expire: { afterMs: 1_500, reason: 'Expired on the edge' } },
      60_000,
    );
    await a.store.create(OWNER, question);
    await a.log!.asked(OWNER, question);
    await a.deadlines!.schedule(OWNER, question);
    await Promise.all([a.sendDueNudges(), b.sendDueNudges()]);
    expect(notices).toEqual([]); // nothing due yet, and no timer in any instance
    await new Promise((r) => setTimeout(r, 700));
    await Promise.all([a.sendDueNudges(), b.sendDueNudges()]); // the cron route (or an inbox read) on two isolates at once
    expect(notices.map((n) => [n.type, n.escalated?.to])).toEqual([['question.escalated', DAVE]]);
    await new Promise((r) => setTimeout(r, 900));
    expect(await b.store.isOpen(OWNER, question.id)).toBe(true); // due, but no request came yet
    await Promise.all([b.sendDueNudges(), a.sendDueNudges()]);
    expect(await a.store.takeAnswer(OWNER, question.id)).toMatchObject({ action: 'cancel', reason: 'Expired on the edge', decisions: [] });
    const history = await a.log!.history(OWNER, question.id);
    expect(history.map((e) => [e.event, e.by, e.channel, e.action ?? e.to ?? null])).toEqual([
      ['asked', 'https://idp.example#alice', 'call', null],
      ['escalated', 'parley', 'deadline', DAVE],
      ['nudged', 'parley', 'notify', null],
      ['expired', 'parley', 'deadline', 'cancel'],
    ]);
  });
});
