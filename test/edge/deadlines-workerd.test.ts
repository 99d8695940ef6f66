// Deadlines without a process timer, in workerd with Durable Objects: under elicitation.unanswered a 2026-07-28 round
// files its question in the inbox, and the person is nudged only if it is still open `afterMs` later. An isolate's
// timer ends with its request, so the nudge is kept in the store and sent by whichever request finds it due: the cron
// route (GET /_frontmcp/deadlines) on another isolate, the Worker's Cron Trigger, or an inbox read; once, signed, and
// never for a question answered in time.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
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

describe('the unanswered policy for an older client, on Workers with Durable Objects', () => {
  it('moves the question the client leaves unanswered to the inbox after afterMs; answered on the other isolate, the call completes', {
    timeout: 60_000,
  }, async () => {
    const s = inboxClient(workers.send);
    const fred = await s.signIn('b', 'fred');
    const asked: string[] = [];
    const client = new Client({ name: 'v1-silent', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    // It declares elicitation and never answers.
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return new Promise(() => {});
    });
    const viaA = async (input: string | URL | Request, init?: RequestInit) => {
      const response = await workers.send('a', new URL(String(input)).pathname, {
        method: init?.method ?? 'GET',
        headers: { ...Object.fromEntries(new Headers(init?.headers)), 'x-test-user': 'fred' },
        body: typeof init?.body === 'string' ? init.body : undefined,
      });
      return new Response(response.body, { status: response.status, headers: response.headers });
    };
    await client.connect(new StreamableHTTPClientTransport(new URL('http://a.test/mcp'), { fetch: viaA }));
    try {
      const result = client.callTool({ name: 'confirm_refund', arguments: { order: 'O-1' } }, undefined, { timeout: 30_000 });
      const q = await s.waitForQuestion('b', fred, (await waitForMessage(s, fred, 'Confirm refund O-1?')).key);
      expect(q.from).toMatchObject({ reason: 'client-never-answered', afterMs: AFTER_MS });
      expect(asked).toEqual(['Confirm refund O-1?']);
      expect(
        (await s.post('b', `/_frontmcp/questions/${q.id}/answer`, { action: 'accept', content: { approve: true } }, fred)).status,
      ).toBe(200);
      expect((await result).structuredContent).toEqual({ approved: true });
    } finally {
      await client.close();
    }
  });
});

/** The question with `message` once the inbox on b lists it. */
async function waitForMessage(s: ReturnType<typeof inboxClient>, cookie: string, message: string): Promise<{ key: string }> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const found = (await s.questions('b', cookie)).body.questions.find((q: { message: string }) => q.message === message);
    if (found) return found;
    await sleep(100);
  }
  throw new Error(`no question "${message}"`);
}
