// Nudges on the edge, in workerd with Durable Objects, past the first attempt: a webhook receiver on loopback that
// refuses first and then takes it gets the next attempt from the store (an isolate's timer ends with its request), sent
// by the cron route once due, with a valid signature and the first attempt's delivery id; a receiver that keeps
// refusing is given up on after `attempts`. And questions filed on two isolates in the same instant each keep their
// nudge: the due set takes each entry in one step, where a read-modify-write of one list lost a concurrent writer's.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers, type DurableWorkers } from '../helpers/durable-objects';
import { read } from '../helpers/requests';
import { type Received, receiver } from '../helpers/webhook-receiver';
import { inboxClient } from './inbox-edge';

const HOOK_SECRET = 'whsec-edge-retries-0123456789';
const AFTER_MS = 800;
const BACKOFF_MS = 1_000;

let hook: Awaited<ReturnType<typeof receiver>>;
let workers: DurableWorkers;
beforeAll(async () => {
  const bundle = await bundleWorker('test/edge/entries/inbox-worker.ts');
  hook = await receiver([204]);
  workers = startDurableWorkers({
    code: bundle.code,
    bindings: {
      PERSISTENT: JSON.stringify({ notify: { url: hook.url, secret: HOOK_SECRET, attempts: 3, backoffMs: BACKOFF_MS } }),
      UNANSWERED: JSON.stringify({ afterMs: AFTER_MS, then: 'inbox' }),
    },
  });
});
afterAll(async () => {
  await workers?.dispose();
  await hook?.close();
});

function verified({ headers, body }: Received): boolean {
  const timestamp = String(headers['parley-timestamp']);
  const expected = Buffer.from(`v1=${createHmac('sha256', HOOK_SECRET).update(`${timestamp}.${body}`).digest('hex')}`);
  const given = Buffer.from(String(headers['parley-signature']));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const deadlines = async (to: 'a' | 'b') => (await read(await workers.send(to, '/_frontmcp/deadlines'))).body as { sent: number };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const questionIds = (from: number) => hook.received.slice(from).map((r) => (JSON.parse(r.body) as { questionId: string }).questionId);

describe('webhook nudges retried on Workers', () => {
  it('keeps the next attempt in the store after a 503; the cron route sends it once due, signed, with the same delivery id', {
    timeout: 60_000,
  }, async () => {
    hook.answerWith([503, 204]);
    const before = hook.received.length;
    await inboxClient(workers.send).call('a', 'dana', 'confirm_refund', { order: 'RT-1' });
    await sleep(AFTER_MS + 100);
    expect(await deadlines('b')).toEqual({ sent: 1 }); // the first attempt: refused
    expect(hook.received.length).toBe(before + 1);
    expect(await deadlines('a')).toEqual({ sent: 0 }); // the next one waits backoffMs, in the store, not in a timer
    await sleep(BACKOFF_MS + 100);
    expect(await deadlines('a')).toEqual({ sent: 1 }); // sent by another isolate than the one that was refused
    expect(await deadlines('b')).toEqual({ sent: 0 });
    const [first, second] = hook.received.slice(before);
    expect(hook.received.length).toBe(before + 2);
    expect(verified(first!) && verified(second!)).toBe(true);
    expect(second!.headers['parley-delivery']).toBe(first!.headers['parley-delivery']);
    expect(second!.headers['webhook-id']).toBe(first!.headers['parley-delivery']);
    expect(questionIds(before)[0]).toBe(questionIds(before)[1]);
    expect(workers.output()).not.toContain('did not take question');
  });

  it('gives up after `attempts`, with one warning naming the origin only, and never retries a 4xx', { timeout: 60_000 }, async () => {
    hook.answerWith([503]);
    const before = hook.received.length;
    await inboxClient(workers.send).call('b', 'erin', 'confirm_refund', { order: 'RT-2' });
    await sleep(AFTER_MS + 100);
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await deadlines(attempt % 2 ? 'a' : 'b')).toEqual({ sent: 1 });
      await sleep(BACKOFF_MS * 2 ** (attempt - 1) + 100);
    }
    expect(await deadlines('a')).toEqual({ sent: 0 });
    expect(hook.received.length).toBe(before + 3);
    await expect.poll(() => workers.output()).toContain(`Question notify webhook ${new URL(hook.url).origin} did not take question`);
    expect(workers.output()).not.toContain('/hooks/parley');

    hook.answerWith([400]);
    const then = hook.received.length;
    await inboxClient(workers.send).call('a', 'fred', 'confirm_refund', { order: 'RT-3' });
    await sleep(AFTER_MS + 100);
    expect(await deadlines('b')).toEqual({ sent: 1 });
    await sleep(BACKOFF_MS + 100);
    expect(await deadlines('a')).toEqual({ sent: 0 });
    expect(hook.received.length).toBe(then + 1);
  });
});

describe('the due set on Workers', () => {
  it('keeps every nudge of questions filed on two isolates at once', { timeout: 90_000 }, async () => {
    hook.answerWith([204]);
    const before = hook.received.length;
    const s = inboxClient(workers.send);
    const orders = Array.from({ length: 24 }, (_, i) => `RACE-${i}`);
    await Promise.all(orders.map((order, i) => s.call(i % 2 ? 'a' : 'b', `racer-${i}`, 'confirm_refund', { order })));
    await sleep(AFTER_MS + 100);
    // What is due goes out with the cron route, or beside a later call that filed a question (the nudges went out
    // beside the calls still filing): each once.
    await deadlines('a');
    await deadlines('b');
    await expect.poll(() => hook.received.length - before, { timeout: 10_000 }).toBe(orders.length);
    const messages = hook.received.slice(before).map((r) => (JSON.parse(r.body) as { message: string }).message);
    expect(messages.sort()).toEqual(orders.map((order) => `Confirm refund ${order}?`).sort());
  });
});
