// Deadlines by alarm, in workerd with Durable Objects and the Worker's self binding (PARLEY_SELF): the due set's object
// sets its alarm at the earliest entry and, when it fires, calls the Worker's cron route itself. So a nudge reaches a
// loopback webhook receiver `afterMs` after filing, signed, with no further request and no Cron Trigger; never for a
// question answered in time; a retry after a 503 goes out by alarm too. A Worker that fails the self-call is called
// again after a growing backoff, never in a hot loop, and the cron route still sends what waits.
import { type Request as MiniflareRequest, Response as MiniflareResponse } from 'miniflare';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers, type DurableWorkers } from '../helpers/durable-objects';
import { read } from '../helpers/requests';
import { type Received, receiver } from '../helpers/webhook-receiver';
import { inboxClient } from './inbox-edge';

const HOOK_SECRET = 'whsec-edge-alarms-0123456789';
const AFTER_MS = 1_500;
const BACKOFF_MS = 1_000;

let code: string;
let hook: Awaited<ReturnType<typeof receiver>>;
let workers: DurableWorkers;
const arrivals: number[] = [];
beforeAll(async () => {
  code = (await bundleWorker('test/edge/entries/inbox-worker.ts')).code;
  hook = await receiver([204]);
  workers = startDurableWorkers({
    code,
    bindings: settings(hook.url),
    serviceBindings: { PARLEY_SELF: 'objects' }, // the Worker that hosts the objects: itself, as wrangler.toml binds it
  });
});
afterAll(async () => {
  await workers?.dispose();
  await hook?.close();
});

function settings(url: string) {
  return {
    PERSISTENT: JSON.stringify({ notify: { url, secret: HOOK_SECRET, attempts: 3, backoffMs: BACKOFF_MS } }),
    UNANSWERED: JSON.stringify({ afterMs: AFTER_MS, then: 'inbox' }),
  };
}

function verified({ headers, body }: Received): boolean {
  const timestamp = String(headers['parley-timestamp']);
  const expected = Buffer.from(`v1=${createHmac('sha256', HOOK_SECRET).update(`${timestamp}.${body}`).digest('hex')}`);
  const given = Buffer.from(String(headers['parley-signature']));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const notices = () => hook.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
/** Waits for the receiver to hold `count` requests, noting when each new one came. */
async function receivedCount(count: number): Promise<void> {
  await expect
    .poll(
      () => {
        while (arrivals.length < hook.received.length) arrivals.push(Date.now());
        return hook.received.length;
      },
      { timeout: 15_000, interval: 50 },
    )
    .toBe(count);
}

describe('deadlines by alarm, on Workers with Durable Objects and the self binding', () => {
  it('sends a nudge afterMs after filing, signed, with no further request and no cron', { timeout: 60_000 }, async () => {
    const before = hook.received.length;
    const filedAt = Date.now();
    const first = await inboxClient(workers.send).call('a', 'dana', 'confirm_refund', { order: 'AL-1' });
    expect(first.result.resultType).toBe('input_required');
    await receivedCount(before + 1); // nothing more is sent to the Worker: the alarm wakes it
    expect(arrivals[before]! - filedAt).toBeGreaterThanOrEqual(AFTER_MS);
    expect(verified(hook.received[before]!)).toBe(true);
    const notice = notices()[before]!;
    expect(notice).toMatchObject({ message: 'Confirm refund AL-1?', from: { reason: 'filed-with-round', afterMs: AFTER_MS } });
    // Its links point where the Worker was reached when the question was filed, not at the alarm's own call.
    expect((notice.actions as { accept: string }).accept).toMatch(/^http:\/\/a\.test\/_frontmcp\//);
    await sleep(1_000);
    expect(hook.received.length).toBe(before + 1); // once
    const cron = (await read(await workers.send('b', '/_frontmcp/deadlines'))).body;
    expect(cron).toEqual({ sent: 0 }); // nothing left for the cron route
  });

  it('sends none for a question answered in time', { timeout: 60_000 }, async () => {
    const s = inboxClient(workers.send);
    const erin = await s.signIn('b', 'erin');
    const before = hook.received.length;
    await s.call('a', 'erin', 'confirm_refund', { order: 'AL-2' });
    const listed = (await s.questions('b', erin)).body.questions.find((q: { message: string }) => q.message === 'Confirm refund AL-2?');
    const q = await s.waitForQuestion('b', erin, listed.key);
    expect((await s.post('b', `/_frontmcp/questions/${q.id}/answer`, { action: 'decline' }, erin)).status).toBe(200);
    await sleep(AFTER_MS + 1_500);
    expect(hook.received.length).toBe(before);
  });

  it('sends the retry after a 503 by alarm, with the same delivery id', { timeout: 60_000 }, async () => {
    hook.answerWith([503, 204]);
    const before = hook.received.length;
    await inboxClient(workers.send).call('b', 'fred', 'confirm_refund', { order: 'AL-3' });
    await receivedCount(before + 2);
    const [first, second] = hook.received.slice(before);
    expect(arrivals[before + 1]! - arrivals[before]!).toBeGreaterThanOrEqual(BACKOFF_MS - 100);
    expect(verified(first!) && verified(second!)).toBe(true);
    expect(second!.headers['parley-delivery']).toBe(first!.headers['parley-delivery']);
    hook.answerWith([204]);
  });
});

describe('a self-call that fails', () => {
  it('is tried again after a growing backoff, not in a hot loop; the cron route still sends the nudge', { timeout: 60_000 }, async () => {
    const wakes: string[] = [];
    const failing = startDurableWorkers({
      code,
      bindings: settings(hook.url),
      serviceBindings: {
        PARLEY_SELF: (request: MiniflareRequest) => {
          wakes.push(new URL(request.url).pathname);
          return new MiniflareResponse('unavailable', { status: 503 });
        },
      },
    });
    try {
      const before = hook.received.length;
      await inboxClient(failing.send).call('a', 'gina', 'confirm_refund', { order: 'AL-4' });
      await sleep(AFTER_MS + 4_500);
      // Due at AFTER_MS, then 1 s and 2 s later: three calls, where a hot loop would make hundreds.
      expect(wakes.length).toBeGreaterThanOrEqual(2);
      expect(wakes.length).toBeLessThanOrEqual(4);
      expect(new Set(wakes)).toEqual(new Set(['/_frontmcp/deadlines']));
      expect(hook.received.length).toBe(before);
      expect((await read(await failing.send('b', '/_frontmcp/deadlines'))).body).toEqual({ sent: 1 });
      await receivedCount(before + 1);
      // The set is empty, so its object holds nothing: no alarm calls again.
      const calls = wakes.length;
      await sleep(3_000);
      expect(wakes.length).toBe(calls);
    } finally {
      await failing.dispose();
    }
  });
});

describe("a due set's one alarm, beside its TTL", () => {
  let objects: DurableWorkers;
  const wakes: { path: string; at: number }[] = [];
  beforeAll(async () => {
    const { code: store } = await bundleWorker('test/edge/entries/durable-store-worker.ts');
    objects = startDurableWorkers({
      code: store,
      classes: { PARLEY_STORE: { className: 'InspectedStore' } },
      // A Worker that answers and sends nothing: members stay due, so each wake counts as one that failed.
      serviceBindings: {
        PARLEY_SELF: (request: MiniflareRequest) => {
          wakes.push({ path: new URL(request.url).pathname, at: Date.now() });
          return new MiniflareResponse(JSON.stringify({ sent: 0 }));
        },
      },
    });
  });
  afterAll(() => objects?.dispose());

  const call = async (path: string, body?: string) => {
    const response = await objects.send('a', `${path}&ns=PARLEY_STORE`, { method: 'POST', body });
    if (response.status >= 400) throw new Error(await response.text());
    return response.text();
  };
  const left = async (key: string) => JSON.parse(await call(`/left?key=${key}`)) as { tables: string[]; alarm: number | null };
  const WAKE = encodeURIComponent('https://worker.example/_frontmcp/deadlines');

  it("is set at the earliest member while that comes before the set's expiry, and wakes the Worker there", {
    timeout: 30_000,
  }, async () => {
    const key = `due:${crypto.randomUUID()}`;
    await left(key); // workerd started and the class loaded: the member is not due before it is added
    const dueAt = Date.now() + 1_500;
    await call(`/zadd?key=${key}&score=${dueAt}&ttl=60000&max=10&wake=${WAKE}`, 'member');
    const armed = await left(key);
    expect(armed.tables.sort()).toEqual(['entry', 'wake']);
    expect(armed.alarm).toBe(dueAt); // not the TTL's, a minute later
    await expect.poll(() => wakes.length, { timeout: 5_000 }).toBe(1);
    expect(wakes[0]!.path).toBe('/_frontmcp/deadlines');
    expect(wakes[0]!.at).toBeGreaterThanOrEqual(dueAt);
    // Nothing was sent and the member stays due: the next wake waits its backoff, the TTL's alarm still behind it.
    const after = await left(key);
    expect(after.alarm).toBeGreaterThanOrEqual(wakes[0]!.at + 900);
    expect(after.alarm).toBeLessThan(dueAt + 60_000);
    await call(`/zrem?key=${key}`, 'member'); // the last member: the object keeps nothing, and no alarm
    expect(await left(key)).toEqual({ tables: [], alarm: null });
    const count = wakes.length;
    await sleep(2_000);
    expect(wakes.length).toBe(count);
  });

  it('is set at the expiry when that comes first: the set goes, the Worker is never woken', { timeout: 30_000 }, async () => {
    const key = `expiring:${crypto.randomUUID()}`;
    const count = wakes.length;
    await call(`/zadd?key=${key}&score=${Date.now() + 60_000}&ttl=400&max=10&wake=${WAKE}`, 'later');
    const armed = await left(key);
    expect(armed.alarm).toBeLessThan(Date.now() + 1_000);
    await expect.poll(() => left(key), { timeout: 5_000 }).toEqual({ tables: [], alarm: null });
    // An alarm delivered again, or for an object that never held anything: nothing to do, nobody woken.
    expect(await call(`/alarm?key=${key}`)).toBe('ran');
    expect(await call(`/alarm?key=never-${crypto.randomUUID()}`)).toBe('ran');
    expect(await left(key)).toEqual({ tables: [], alarm: null });
    expect(wakes.length).toBe(count);
  });
});
