// persistent.notify against real local HTTP receivers (node:http on 127.0.0.1): a signed POST when a question lands in
// an inbox, retried after a 500, given up on a receiver that is down; and the function form.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type Received, receiver } from '../helpers/webhook-receiver';
import { policyServer, type PolicyServer } from './unanswered-helpers';

const HOOK_SECRET = 'whsec-unanswered-test-0123456789';

/** How a receiver checks a notice: HMAC-SHA256 of `<timestamp>.<body>` under the shared secret, compared in constant time. */
function verified({ headers, body }: Received): boolean {
  const timestamp = String(headers['parley-timestamp']);
  const expected = Buffer.from(`v1=${createHmac('sha256', HOOK_SECRET).update(`${timestamp}.${body}`).digest('hex')}`);
  const given = Buffer.from(String(headers['parley-signature']));
  return given.length === expected.length && timingSafeEqual(given, expected) && Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(check()).toBe(true);
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function serverWith(notify: unknown, logs: string[] = []): Promise<PolicyServer> {
  const log = (line: string) => logs.push(line);
  const s = await policyServer({
    logger: { debug: log, info: log, warn: log, error: log },
    elicitation: {
      enabled: true,
      persistent: { storage: { type: 'memory' }, notify: notify as never },
      unanswered: { afterMs: 300, then: 'inbox' },
    },
  });
  cleanups.push(() => s.close());
  return s;
}

/** A 2026-07-28 call whose first round files its question in the inbox (and so sends the nudge). */
const askRound = (s: PolicyServer, sub: string, version: string) => s.call(sub, 'deploy', { version });

describe('persistent.notify as a webhook', () => {
  it('POSTs a signed notice naming the question, its caller and why it is there, a signed form link and no code', async () => {
    const hook = await receiver([204]);
    cleanups.push(hook.close);
    const s = await serverWith({ url: hook.url, secret: HOOK_SECRET });
    expect((await askRound(s, 'ida', '7.0')).resultType).toBe('input_required');
    await until(() => hook.received.length === 1);
    const [notice] = hook.received;
    expect(verified(notice!)).toBe(true);
    expect(notice!.headers['content-type']).toBe('application/json');
    expect(notice!.headers['parley-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    const body = JSON.parse(notice!.body);
    const [q] = await (await s.person('ida')).questions();
    expect(body).toEqual({
      type: 'question.filed',
      server: s.name,
      questionId: q!.id,
      principal: 'principal:https://idp.example#ida',
      message: 'Deploy 7.0?',
      from: { tool: 'deploy', reason: 'filed-with-round', afterMs: 300 },
      createdAt: q!.createdAt,
      expiresAt: q!.expiresAt,
      // Its form has two fields, so one signed link to the inbox (test/inbox/action-links.test.ts tests them).
      actions: { form: expect.stringMatching(new RegExp(`^${s.url.origin}/_frontmcp/act\\?`)), expiresAt: expect.any(Number) },
    });
    expect(notice!.body).not.toMatch(/code=|_frontmcp\/inbox/);
    // The same question asked again is not filed again, so nobody is nudged twice.
    await askRound(s, 'ida', '7.0');
    await new Promise((r) => setTimeout(r, 200));
    expect(hook.received).toHaveLength(1);
  });

  it('retries a receiver that answers 500, with the same delivery id and a fresh valid signature, until it answers 200', async () => {
    const hook = await receiver([500, 200]);
    cleanups.push(hook.close);
    const s = await serverWith({ url: hook.url, secret: HOOK_SECRET, backoffMs: 20 });
    await askRound(s, 'jon', '7.1');
    await until(() => hook.received.length === 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(hook.received).toHaveLength(2);
    expect(hook.received.every(verified)).toBe(true);
    expect(hook.received[1]!.headers['parley-delivery']).toBe(hook.received[0]!.headers['parley-delivery']);
    expect(hook.received[1]!.body).toBe(hook.received[0]!.body);
  });

  it('gives up on a receiver that is down after its attempts, logs why without the secret, and the question still waits', async () => {
    const down = await receiver([200]);
    await down.close(); // nothing listens on its port now: connection refused
    const logs: string[] = [];
    const s = await serverWith({ url: down.url, secret: HOOK_SECRET, attempts: 3, backoffMs: 10 }, logs);
    expect((await askRound(s, 'kim', '7.2')).resultType).toBe('input_required');
    await until(() => logs.some((l) => l.includes('did not take question')));
    const line = logs.find((l) => l.includes('did not take question'))!;
    expect(line).toMatch(/Question notify webhook http:\/\/127\.0\.0\.1:\d+ did not take question [0-9a-f-]{36} \(ECONNREFUSED\)/);
    expect(line).not.toContain('/hooks/parley');
    expect(logs.join('\n')).not.toContain(HOOK_SECRET);
    expect(await (await s.person('kim')).questions()).toHaveLength(1);
  });

  it('sends a one-time inbox link only with includeLink, and that link signs the person in', async () => {
    const hook = await receiver([200]);
    cleanups.push(hook.close);
    const s = await serverWith({ url: hook.url, secret: HOOK_SECRET, includeLink: true });
    await askRound(s, 'lou', '7.3');
    await until(() => hook.received.length === 1);
    const { link } = JSON.parse(hook.received[0]!.body) as { link: string };
    expect(link).toMatch(new RegExp(`^${s.url.origin}/_frontmcp/inbox#code=`));
    const code = new URL(link).hash.slice('#code='.length);
    const signIn = await fetch(`${s.url.origin}/_frontmcp/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: s.url.origin },
      body: JSON.stringify({ code }),
    });
    expect(signIn.status).toBe(204);
  });
});

describe('the nudge for a question filed beside a 2026-07-28 round', () => {
  it('waits afterMs, and goes only if the client has not answered by then', async () => {
    const hook = await receiver([204]);
    cleanups.push(hook.close);
    const s = await serverWith({ url: hook.url, secret: HOOK_SECRET });
    // The client answers its round at once: the question leaves the inbox, and the person is not bothered.
    const round = await askRound(s, 'nia', '7.5');
    expect(round.resultType).toBe('input_required');
    const retry = await s.call(
      'nia',
      'deploy',
      { version: '7.5' },
      { requestState: round.requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { approve: true } } } },
    );
    expect(retry.structuredContent).toEqual({ deployed: true });
    // A client that never retries, asked after the first: its nudge comes afterMs later, so the first one's came before.
    expect((await askRound(s, 'nia', '7.6')).resultType).toBe('input_required');
    await until(() => hook.received.some((r) => JSON.parse(r.body).message === 'Deploy 7.6?'));
    expect(hook.received.map((r) => JSON.parse(r.body).message)).toEqual(['Deploy 7.6?']);
  });
});

describe('persistent.notify as a function', () => {
  it('is called with the notice and can make the inbox link itself; its failure is logged, never the call', async () => {
    const notices: Array<Record<string, unknown>> = [];
    const logs: string[] = [];
    const s = await serverWith(async (notice: Record<string, unknown>, tools: { createLink?: () => Promise<string> }) => {
      notices.push({ ...notice, link: await tools.createLink?.() });
      throw new Error('the chat service is down');
    }, logs);
    expect((await askRound(s, 'max', '7.4')).resultType).toBe('input_required');
    await until(() => logs.some((l) => l.includes('the chat service is down')));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ type: 'question.filed', message: 'Deploy 7.4?', from: { reason: 'filed-with-round' } });
    expect(notices[0]!.link).toMatch(/\/_frontmcp\/inbox#code=/);
  });
});
