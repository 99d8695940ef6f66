// The nudge's Standard Webhooks headers and action links, against a real Node server and a real local receiver: the
// headers verified by the official `standardwebhooks` package, and the links used by raw fetch as the person and as an
// attacker (forged, expired, replayed, another person's session, `__proto__`, a GET that must not answer, cross-site).
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { type Received, receiver } from '../helpers/webhook-receiver';
import { App, LoopbackTokenAuth, Tool, ToolContext, z } from 'parley-mcp';
import { ISSUER, policyServer, type PolicyServer } from './unanswered-helpers';

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
const WHSEC = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const PLAIN = 'plain-action-links-secret-42';

@Tool({ name: 'ship', inputSchema: { version: z.string() } })
class Ship extends ToolContext {
  async execute({ version }: { version: string }) {
    const answer = await this.elicit(`Ship ${version}?`, z.object({ approve: z.boolean() }), { ttl: 4_000 });
    return { status: answer.status, approve: answer.content?.approve ?? null };
  }
}

@Tool({ name: 'plan', inputSchema: { version: z.string() } })
class Plan extends ToolContext {
  async execute({ version }: { version: string }) {
    const answer = await this.elicit(`Plan ${version}?`, z.object({ day: z.string(), notes: z.string().optional() }), { ttl: 4_000 });
    return { status: answer.status };
  }
}

@App({ id: 'links', tools: [Ship, Plan] })
class Links {}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(check()).toBe(true);
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

interface Setup {
  s: PolicyServer;
  hook: Awaited<ReturnType<typeof receiver>>;
}

async function setup(notify: Record<string, unknown>, statuses = [204]): Promise<Setup> {
  const hook = await receiver(statuses);
  cleanups.push(hook.close);
  const s = await policyServer({
    apps: [Links],
    elicitation: {
      enabled: true,
      persistent: { storage: { type: 'memory' }, notify: { url: hook.url, ...notify } as never },
      unanswered: { afterMs: 100, then: 'inbox' },
    },
  });
  cleanups.push(() => s.close());
  return { s, hook };
}

const headersOf = (r: Received) => Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));

/** Files a question for `sub` (a 2026-07-28 round the client never answers) and returns the nudge's body. */
async function nudged({ s, hook }: Setup, sub: string, tool: string, version: string): Promise<Record<string, any>> {
  const before = hook.received.length;
  expect((await s.call(sub, tool, { version })).resultType).toBe('input_required');
  await until(() => hook.received.length > before);
  return JSON.parse(hook.received.at(-1)!.body);
}

/** A signed-in inbox session's cookie for `sub`. */
async function cookieOf(s: PolicyServer, sub: string): Promise<string> {
  const { code } = await LoopbackTokenAuth.createCode({ subject: `principal:${ISSUER}#${sub}`, server: s.name });
  const response = await fetch(`${s.url.origin}/_frontmcp/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: s.url.origin },
    body: JSON.stringify({ code }),
  });
  expect(response.status).toBe(204);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

/** The confirm page's POST as a browser on this server's page sends it (or as told). */
const post = (s: PolicyServer, link: string, headers: Record<string, string> = {}) =>
  fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.url.origin, 'sec-fetch-site': 'same-origin', ...headers },
    body: 'confirm=1',
    redirect: 'manual',
  });

const text = async (response: Response) => ({ status: response.status, body: await response.text() });

describe('Standard Webhooks headers on the nudge', () => {
  it('verify with the official standardwebhooks package under a whsec_ secret, beside the parley-* headers', async () => {
    const setupWh = await setup({ secret: WHSEC });
    await nudged(setupWh, 'ana', 'ship', '1.0');
    const [received] = setupWh.hook.received;
    const headers = headersOf(received!);
    expect(headers['webhook-id']).toBe(headers['parley-delivery']);
    expect(headers['webhook-timestamp']).toBe(headers['parley-timestamp']);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(headers['parley-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    const payload = new Webhook(WHSEC).verify(received!.body, headers) as Record<string, unknown>;
    expect(payload.message).toBe('Ship 1.0?');
    // A byte changed, or another secret: refused.
    expect(() => new Webhook(WHSEC).verify(received!.body.replace('Ship', 'Shop'), headers)).toThrow();
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(received!.body, headers)).toThrow();
  });

  it('signs under a plain secret\'s UTF-8 bytes: the package verifies it in its "raw" form', async () => {
    const setupPlain = await setup({ secret: PLAIN });
    await nudged(setupPlain, 'bea', 'ship', '1.1');
    const [received] = setupPlain.hook.received;
    const payload = new Webhook(new TextEncoder().encode(PLAIN), { format: 'raw' }).verify(received!.body, headersOf(received!));
    expect((payload as { questionId: string }).questionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the webhook-id across retries, with a fresh valid signature on each attempt', async () => {
    const setupRetry = await setup({ secret: WHSEC, backoffMs: 1100 }, [503, 200]);
    await nudged(setupRetry, 'cy', 'ship', '1.2');
    await until(() => setupRetry.hook.received.length === 2);
    const [first, second] = setupRetry.hook.received.map(headersOf);
    expect(second!['webhook-id']).toBe(first!['webhook-id']);
    expect(Number(second!['webhook-timestamp'])).toBeGreaterThan(Number(first!['webhook-timestamp']));
    for (const r of setupRetry.hook.received) expect(new Webhook(WHSEC).verify(r.body, headersOf(r))).toBeTruthy();
  });

  it('refuses a whsec_ secret that is not base64 of 24 to 64 bytes at startup', async () => {
    await expect(setup({ secret: 'whsec_not base64 at all!!' })).rejects.toThrow(
      /notify\.secret: a whsec_ secret must be whsec_ and the base64 of 24 to 64 bytes/,
    );
  });
});

describe('action links in the nudge', () => {
  it('answers a yes/no question once, for its owner signed in, and only by a POST', async () => {
    const setupA = await setup({ secret: WHSEC });
    const { s } = setupA;
    const body = await nudged(setupA, 'dee', 'ship', '2.0');
    const { accept, decline, expiresAt } = body.actions as { accept: string; decline: string; expiresAt: number };
    expect(accept).toMatch(new RegExp(`^${s.url.origin}/_frontmcp/act\\?l=[\\w-]{22}&a=accept&e=\\d+&s=[\\w-]{43}$`));
    expect(decline).toContain('&a=decline&');
    expect(expiresAt).toBeLessThanOrEqual(body.expiresAt);
    expect(accept).not.toContain('Ship'); // nothing of the question in it
    const dee = await cookieOf(s, 'dee');
    const eve = await cookieOf(s, 'eve');

    // A mail scanner's GET (no session) and the owner's GET show the confirm page and answer nothing.
    const scanned = await text(await fetch(accept));
    expect(scanned.status).toBe(200);
    expect(scanned.body).toContain('Nothing is answered until you press the button');
    expect(scanned.body).not.toContain('Ship 2.0?'); // not shown without the owner's session
    const shown = await text(await fetch(accept, { headers: { cookie: dee } }));
    expect(shown.body).toContain('Ship 2.0?');
    expect(shown.body).toContain('<form method="post"');
    expect(
      (await fetch(`${s.url.origin}/_frontmcp/questions`, { headers: { cookie: dee } }).then((r) => r.json())).questions[0].state,
    ).toBe('open');

    // No session, another person's session, another site: refused, and the link is not used up.
    expect((await text(await post(s, accept))).status).toBe(401);
    const other = await text(await post(s, accept, { cookie: eve }));
    expect(other.status).toBe(403);
    expect(other.body).toContain('for someone else');
    expect((await fetch(accept, { headers: { cookie: eve } })).status).toBe(403);
    expect((await post(s, accept, { cookie: dee, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403);

    // The owner's POST answers; the tool's next call gets the answer.
    const done = await text(await post(s, accept, { cookie: dee }));
    expect(done.status).toBe(200);
    expect(done.body).toContain('Accepted');
    expect((await s.call('dee', 'ship', { version: '2.0' })).structuredContent).toEqual({ status: 'accept', approve: true });

    // Replayed, or its pair used after it: already used.
    const replayed = await text(await post(s, accept, { cookie: dee }));
    expect(replayed.status).toBe(410);
    expect(replayed.body).toContain('already used');
    expect((await post(s, decline, { cookie: dee })).status).toBe(410);
    expect((await fetch(decline, { headers: { cookie: dee } })).status).toBe(410);
  });

  it('refuses forged, tampered, expired and odd links with a page that names nothing', async () => {
    const setupB = await setup({ secret: WHSEC, actionLinkMaxAgeMs: 1500 });
    const { s } = setupB;
    const { accept, decline } = (await nudged(setupB, 'fay', 'ship', '3.0')).actions;
    const fay = await cookieOf(s, 'fay');
    const url = new URL(accept);
    const withParams = (change: (p: URLSearchParams) => void) => {
      const u = new URL(url);
      change(u.searchParams);
      return u.toString();
    };
    const forged = withParams((p) => p.set('s', `${p.get('s')!.slice(0, -1)}${p.get('s')!.endsWith('A') ? 'B' : 'A'}`));
    const otherAction = withParams((p) => p.set('a', 'decline')); // accept's signature on a decline
    const later = withParams((p) => p.set('e', String(Number(p.get('e')) + 3600)));
    const proto = withParams((p) => p.append('__proto__', 'x'));
    const protoAction = withParams((p) => p.set('a', '__proto__'));
    const twice = withParams((p) => p.append('a', 'accept'));
    for (const link of [forged, otherAction, later, proto, protoAction, twice]) {
      const got = await text(await post(s, link, { cookie: fay }));
      expect(got.status, link).toBe(400);
      expect(got.body).toContain('This link is not valid');
      expect((await fetch(link, { headers: { cookie: fay } })).status).toBe(400);
    }
    // The real links still work until they expire; then a clear page, and nothing is answered.
    await new Promise((r) => setTimeout(r, 1600));
    const expired = await text(await post(s, decline, { cookie: fay }));
    expect(expired.status).toBe(410);
    expect(expired.body).toContain('expired');
    expect(
      (await fetch(`${s.url.origin}/_frontmcp/questions`, { headers: { cookie: fay } }).then((r) => r.json())).questions[0].state,
    ).toBe('open');
  });

  it('says "already answered" (409) when the inbox answered first, and keeps the link unused', async () => {
    const setupC = await setup({ secret: WHSEC });
    const { s } = setupC;
    const body = await nudged(setupC, 'gus', 'ship', '4.0');
    const gus = await cookieOf(s, 'gus');
    const person = await s.person('gus');
    expect((await person.answer(body.questionId, { action: 'decline' })).status).toBe(200);
    const late = await text(await post(s, body.actions.accept, { cookie: gus }));
    expect(late.status).toBe(409);
    expect(late.body).toContain('Already answered');
    expect((await fetch(body.actions.accept, { headers: { cookie: gus } })).status).toBe(409);
  });

  it('with actionLinks: "possession", the link alone answers (the weaker mode), still once', async () => {
    const setupD = await setup({ secret: PLAIN, actionLinks: 'possession' });
    const { s } = setupD;
    const { decline } = (await nudged(setupD, 'hal', 'ship', '5.0')).actions;
    expect((await text(await fetch(decline))).body).toContain('Ship 5.0?');
    expect((await post(s, decline)).status).toBe(200);
    expect((await s.call('hal', 'ship', { version: '5.0' })).structuredContent).toEqual({ status: 'decline', approve: null });
    expect((await post(s, decline)).status).toBe(410);
  });

  it('gives a question with a fuller form one signed link that opens the inbox', async () => {
    const setupE = await setup({ secret: WHSEC });
    const { s } = setupE;
    const { actions } = await nudged(setupE, 'ivy', 'plan', '6.0');
    expect(Object.keys(actions).sort()).toEqual(['expiresAt', 'form']);
    const opened = await fetch(actions.form, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/_frontmcp/inbox');
    expect((await fetch(actions.form.replace('a=form', 'a=accept'), { redirect: 'manual' })).status).toBe(400);
    expect((await post(s, actions.form)).status).toBe(303); // a POST of a form link answers nothing either
  });

  it("with actionLinks: 'off' the body has none", async () => {
    const setupF = await setup({ secret: WHSEC, actionLinks: 'off' });
    expect((await nudged(setupF, 'jo', 'ship', '7.0')).actions).toBeUndefined();
  });
});
