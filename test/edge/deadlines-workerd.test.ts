// Deadlines without a process timer, in workerd with Durable Objects: under elicitation.unanswered a 2026-07-28 round
// files its question in the inbox, and the person is nudged only if it is still open `afterMs` later. An isolate's
// timer ends with its request, so the nudge is kept in the store and sent by whichever request finds it due: the cron
// route (GET /_frontmcp/deadlines) on another isolate, the Worker's Cron Trigger, or an inbox read; once, signed, and
// never for a question answered in time.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers, type DurableWorkers } from '../helpers/durable-objects';
import { read } from '../helpers/requests';
import { type Received, receiver } from '../helpers/webhook-receiver';
import { inboxClient } from './inbox-edge';

const HOOK_SECRET = 'whsec-edge-deadlines-0123456789';
const AFTER_MS = 1_500;

let code: string;
let hook: Awaited<ReturnType<typeof receiver>>;
let workers: DurableWorkers;
beforeAll(async () => {
  const bundle = await bundleWorker('test/edge/entries/inbox-worker.ts');
  expect(bundle.nodeImports).toEqual([]);
  code = bundle.code;
  hook = await receiver([204]);
  workers = startDurableWorkers({
    code,
    bindings: {
      PERSISTENT: JSON.stringify({ notify: { url: hook.url, secret: HOOK_SECRET } }),
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
const notices = () => hook.received.map((r) => JSON.parse(r.body) as { questionId: string; message: string; from: unknown });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('nudges that wait, on Workers with Durable Objects', () => {
  it('are sent by the cron route on another isolate once due, once, signed', { timeout: 60_000 }, async () => {
    const s = inboxClient(workers.send);
    const first = await s.call('a', 'dana', 'confirm_refund', { order: 'C-1' });
    expect(first.result.resultType).toBe('input_required'); // the client was asked; the question waits in the inbox too
    const filedAt = Date.now();
    expect(await deadlines('b')).toEqual({ sent: 0 }); // not due yet
    await sleep(AFTER_MS - (Date.now() - filedAt) + 100);
    expect(await deadlines('b')).toEqual({ sent: 1 });
    expect(await deadlines('a')).toEqual({ sent: 0 }); // sent once, whichever isolate asks
    expect(hook.received).toHaveLength(1);
    expect(verified(hook.received[0]!)).toBe(true);
    expect(notices()[0]).toMatchObject({ message: 'Confirm refund C-1?', from: { reason: 'filed-with-round', afterMs: AFTER_MS } });
  });

  it('are sent by an inbox read once due, and not for a question answered in time', { timeout: 60_000 }, async () => {
    const s = inboxClient(workers.send);
    const dana = await s.signIn('b', 'dana');
    const before = hook.received.length;
    await s.call('a', 'dana', 'confirm_refund', { order: 'C-2' });
    await s.call('a', 'dana', 'confirm_refund', { order: 'C-3' });
    // C-3 is answered in the inbox before it is due: nobody is nudged for it.
    const c3 = await s.waitForQuestion(
      'b',
      dana,
      (await s.questions('b', dana)).body.questions.find((q: { message: string }) => q.message === 'Confirm refund C-3?').key,
    );
    expect((await s.post('b', `/_frontmcp/questions/${c3.id}/answer`, { action: 'decline' }, dana)).status).toBe(200);
    await sleep(AFTER_MS + 100);
    expect(hook.received.length).toBe(before);
    await s.questions('a', dana); // the person's inbox read on a sends what is due, after its response
    await expect.poll(() => hook.received.length, { timeout: 10_000 }).toBe(before + 1);
    expect(notices().at(-1)).toMatchObject({ message: 'Confirm refund C-2?' });
    expect(await deadlines('b')).toEqual({ sent: 0 });
    expect(workers.output()).not.toContain('ERROR');
  });

  it("are sent by the Worker's Cron Trigger (its scheduled handler)", { timeout: 60_000 }, async () => {
    const s = inboxClient(workers.send);
    const before = hook.received.length;
    await s.call('a', 'erin', 'confirm_refund', { order: 'C-4' });
    await sleep(AFTER_MS + 100);
    const b = await workers.mf.getWorker('b');
    await (b as unknown as { scheduled(options: { cron: string }): Promise<unknown> }).scheduled({ cron: '* * * * *' });
    await expect.poll(() => hook.received.length, { timeout: 10_000 }).toBe(before + 1);
    expect(notices().at(-1)).toMatchObject({ message: 'Confirm refund C-4?', principal: 'principal:https://idp.example#erin' });
  });
});
