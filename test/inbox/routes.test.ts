import { describe, expect, it } from 'vitest';
import { App, LoopbackTokenAuth, Tool, ToolContext, z } from 'parley-mcp';
import { config } from '../../examples/inbox/server';
import { read } from '../helpers/requests';
import { inboxServer, ORIGIN } from './inbox-helpers';

let asked = 0;
@Tool({ name: 'refund', inputSchema: { order: z.string() } })
class Refund extends ToolContext {
  async execute({ order }: { order: string }) {
    asked++;
    const approval = await this.elicit(`Refund ${order}?`, z.object({ ok: z.boolean() }), {
      ttl: 10_000,
      persist: { key: `refund-${order}` },
    });
    const note = await this.elicit('A note for the customer?', z.object({ note: z.string() }));
    return { approved: approval.content?.ok === true, note: note.content?.note };
  }
}
@App({ id: 'refunds', tools: [Refund] })
class Refunds {}

describe('a persistent question through the MCP endpoint and the inbox routes', () => {
  it('gives the waiting tool call the answer posted in the inbox', async () => {
    const s = inboxServer();
    const cookie = await s.signIn();
    const call = s.call('approve_deploy', { version: '1.2.0' });
    const q = await s.waitForQuestion(cookie, 'deploy-1.2.0');
    expect(q).toMatchObject({ message: 'Deploy 1.2.0?', state: 'open', waiting: true });
    expect(q.requestedSchema.properties.environment).toMatchObject({ enum: ['staging', 'production'], default: 'staging' });
    const answer = await s.post(
      `/_frontmcp/questions/${q.id}/answer`,
      { action: 'accept', content: { approve: true, environment: 'production', note: 'ship it' } },
      { cookie },
    );
    expect(await read(answer)).toEqual({ status: 200, body: { status: 'answered', action: 'accept', delivered: 'waiting-call' } });
    expect((await call).result.structuredContent).toEqual({ approved: true, note: 'ship it' });
    expect((await s.questions(cookie)).questions).toEqual([]);
  });

  it('fails a call that stopped waiting with QUESTION_PENDING, then the next call of the key gets the answer', async () => {
    const s = inboxServer();
    const cookie = await s.signIn();
    const first = await s.call('approve_deploy', { version: '2.0.0', waitMs: 100 });
    expect(first.result).toMatchObject({ isError: true, _meta: { code: 'QUESTION_PENDING' } });
    const [q] = (await s.questions(cookie)).questions;
    expect(q).toMatchObject({ key: 'deploy-2.0.0', waiting: false });
    const answer = await read(await s.post(`/_frontmcp/questions/${q.id}/answer`, { action: 'decline' }, { cookie }));
    expect(answer.body.delivered).toBe('next-call');
    expect((await s.call('approve_deploy', { version: '2.0.0', waitMs: 100 })).result.structuredContent).toEqual({ approved: false });
  });

  it('fails the older of two calls of the same key with QUESTION_SUPERSEDED', async () => {
    const s = inboxServer();
    const cookie = await s.signIn();
    const older = s.call('approve_deploy', { version: '3.0.0' });
    await s.waitForQuestion(cookie, 'deploy-3.0.0');
    const newer = s.call('approve_deploy', { version: '3.0.0' });
    expect((await older).result).toMatchObject({ isError: true, _meta: { code: 'QUESTION_SUPERSEDED' } });
    const q = await s.waitForQuestion(cookie, 'deploy-3.0.0');
    await s.post(`/_frontmcp/questions/${q.id}/answer`, { action: 'accept', content: { approve: true } }, { cookie });
    expect((await newer).result.structuredContent).toEqual({ approved: true });
  });

  it('refuses anonymous callers, and persist options it cannot keep', async () => {
    const s = inboxServer();
    const { mcpRequest } = await import('../helpers/requests');
    const anonymous = (await read(await s.handler(mcpRequest('tools/call', { name: 'approve_deploy', arguments: { version: '1' } })))).body;
    expect(anonymous.result).toMatchObject({ isError: true, _meta: { code: 'ELICITATION_NOT_SUPPORTED' } });
    const tooShort = await s.call('approve_deploy', { version: '1', waitMs: 2 * 86_400_000 });
    expect(tooShort.result).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
    expect(tooShort.result.content[0].text).toMatch(/persist\.ttlMs \(86400000\) must be longer than the call's ttl/);
  });
});

describe('a persistent question on 2026-07-28 rounds', () => {
  it('keeps the inbox answer in the signed state, so the retry does not ask it again, and ignores a client that sends one', async () => {
    const s = inboxServer({ apps: [...config.apps!, Refunds] });
    const cookie = await s.signIn();
    asked = 0;
    const first = s.call('refund', { order: 'A-1' });
    const q = await s.waitForQuestion(cookie, 'refund-A-1');
    await s.post(`/_frontmcp/questions/${q.id}/answer`, { action: 'accept', content: { ok: true } }, { cookie });
    const round = (await first).result;
    expect(round).toMatchObject({
      resultType: 'input_required',
      inputRequests: { 'elicitation-1': { params: { message: 'A note for the customer?' } } },
    });
    const done = await s.call('refund', { order: 'A-1' }, 'dana', {
      requestState: round.requestState,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { note: 'sorry' } } },
    });
    expect(done.result?.structuredContent, JSON.stringify(done)).toEqual({ approved: true, note: 'sorry' });
    expect(asked).toBe(2);
    expect((await s.questions(cookie)).questions).toEqual([]);
    // A client cannot answer the persistent question itself: its persisted-N answer is not taken.
    const sneaky = s.call('refund', { order: 'B-2' }, 'dana', {
      inputResponses: { 'persisted-1': { action: 'accept', content: { ok: true } } },
    });
    const pending = await s.waitForQuestion(cookie, 'refund-B-2');
    await s.post(`/_frontmcp/questions/${pending.id}/answer`, { action: 'decline' }, { cookie });
    expect((await sneaky).result.resultType).toBe('input_required');
  });
});

describe('the inbox routes', () => {
  const pendingQuestion = async (s: ReturnType<typeof inboxServer>, cookie: string, version = '9.9.9') => {
    await s.call('approve_deploy', { version, waitMs: 20 });
    return (await s.questions(cookie)).questions[0];
  };

  it('serves the page with a strict content security policy and no inline script', async () => {
    const s = inboxServer();
    const page = await s.request('/_frontmcp/inbox');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('<script src="/_frontmcp/inbox/app.js" defer></script>');
    expect(html).not.toMatch(/<script>(?!<)/);
    expect((await s.request('/_frontmcp/inbox/app.js')).headers.get('content-type')).toMatch(/javascript/);
    expect(await (await s.request('/_frontmcp/inbox/app.js')).text()).not.toMatch(/innerHTML|insertAdjacentHTML|outerHTML|document\.write/);
    expect((await s.request('/_frontmcp/nothing-here')).status).toBe(404);
  });

  it('answers 401 without a session, for a spent code, and for the startup token', async () => {
    const s = inboxServer();
    expect((await s.request('/_frontmcp/questions')).status).toBe(401);
    expect((await s.request('/_frontmcp/questions/events')).status).toBe(401);
    expect((await s.post('/_frontmcp/questions/x/answer', { action: 'decline' })).status).toBe(401);
    const cookie = await s.signIn();
    expect((await s.request('/_frontmcp/questions', { cookie: 'parley_inbox=forged' })).status).toBe(401);
    const { code } = await LoopbackTokenAuth.createCode({ subject: 'principal:https://idp.example#dana', server: s.name });
    expect((await s.post('/_frontmcp/sign-in', { code })).status).toBe(204);
    expect((await s.post('/_frontmcp/sign-in', { code })).status).toBe(401);
    expect((await s.post('/_frontmcp/sign-in', { code: 'never-issued' })).status).toBe(401);
    const startup = await s.post('/_frontmcp/sign-in', { token: LoopbackTokenAuth.of(s.name).startupToken });
    expect(startup.status).toBe(204);
    const startupCookie = startup.headers.get('set-cookie')!.split(';')[0]!;
    expect((await s.request('/_frontmcp/questions', { cookie: startupCookie })).status).toBe(401);
    expect((await s.request('/_frontmcp/questions', { cookie })).status).toBe(200);
  });

  it('sets an HttpOnly, SameSite=Strict cookie scoped to /_frontmcp, and JSON views that are never cached', async () => {
    const s = inboxServer();
    await s.handler(new Request(`${ORIGIN}/_frontmcp/inbox`));
    const { code } = await LoopbackTokenAuth.createCode({ subject: 'principal:https://idp.example#dana', server: s.name });
    const cookie = (await s.post('/_frontmcp/sign-in', { code })).headers.get('set-cookie');
    expect(cookie).toMatch(/^parley_inbox=[\w-]{43}; Path=\/_frontmcp; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    const view = await s.request('/_frontmcp/questions', { cookie: cookie!.split(';')[0] });
    expect(view.headers.get('cache-control')).toBe('no-store');
    expect(await view.json()).toEqual({ signedInAs: 'https://idp.example#dana', questions: [] });
  });

  it('keeps subjects apart: another subject sees an empty inbox and 404 for the question', async () => {
    const s = inboxServer();
    const dana = await s.signIn('dana');
    const eve = await s.signIn('eve');
    const q = await pendingQuestion(s, dana);
    expect(q).toBeDefined();
    expect((await s.questions(eve)).questions).toEqual([]);
    expect(
      (await s.post(`/_frontmcp/questions/${q.id}/answer`, { action: 'accept', content: { approve: true } }, { cookie: eve })).status,
    ).toBe(404);
    expect(
      (await s.post(`/_frontmcp/questions/${q.id}/answer`, { action: 'accept', content: { approve: true } }, { cookie: dana })).status,
    ).toBe(200);
  });

  it('checks answers: 403 from another site, 415, 400 for bad JSON, actions and content, 404, and 409 for a second answer', async () => {
    const s = inboxServer();
    const cookie = await s.signIn();
    const q = await pendingQuestion(s, cookie);
    const path = `/_frontmcp/questions/${q.id}/answer`;
    const status = async (body: unknown, headers: Record<string, string> = {}) => (await s.post(path, body, { cookie, headers })).status;
    expect(await status({ action: 'decline' }, { origin: 'http://localhost:9999' })).toBe(403);
    expect(await status({ action: 'decline' }, { origin: 'https://evil.example' })).toBe(403);
    expect(await status({ action: 'decline' }, { 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect(
      (await s.request(path, { method: 'POST', cookie, headers: { 'content-type': 'text/plain' }, body: '{"action":"decline"}' })).status,
    ).toBe(415);
    expect((await s.request(path, { method: 'POST', cookie, headers: { 'content-type': 'application/json' }, body: '{nope' })).status).toBe(
      400,
    );
    expect(await status({ action: 'approve' })).toBe(400);
    expect(await status({ action: 'accept', content: [] })).toBe(400);
    expect(await status({ action: 'accept', content: { approve: 'yes' } })).toBe(400);
    expect(await status({ action: 'accept', content: {} })).toBe(400);
    expect(await status({ action: 'accept', content: { approve: true, environment: 'moon' } })).toBe(400);
    expect(await status({ action: 'accept', content: { approve: true } }, { origin: ORIGIN, 'sec-fetch-site': 'same-origin' })).toBe(200);
    expect(await status({ action: 'decline' })).toBe(409);
    expect((await s.post('/_frontmcp/questions/no-such-id/answer', { action: 'decline' }, { cookie })).status).toBe(404);
    expect((await s.post('/_frontmcp/sign-in', { code: 'x' }, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });

  it('behind a TLS proxy (http.publicUrl), takes sign-ins and answers from the public origin, not the inside one, with a Secure cookie', async () => {
    const PUBLIC = 'https://inbox.example';
    const s = inboxServer({ http: { publicUrl: PUBLIC, auth: { people: 'loopback-token' } } });
    await s.handler(new Request(`${ORIGIN}/_frontmcp/inbox`));
    const { code } = await LoopbackTokenAuth.createCode({ subject: 'principal:https://idp.example#dana', server: s.name });
    const fromPage = { origin: PUBLIC, 'sec-fetch-site': 'same-origin' };
    const signedIn = await s.post('/_frontmcp/sign-in', { code }, { headers: fromPage });
    expect(signedIn.status).toBe(204);
    expect(signedIn.headers.get('set-cookie')).toMatch(/; Secure$/);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const q = await pendingQuestion(s, cookie);
    const answer = (headers: Record<string, string>) =>
      s.post(`/_frontmcp/questions/${q.id}/answer`, { action: 'accept', content: { approve: true } }, { cookie, headers });
    expect((await answer({ origin: ORIGIN })).status).toBe(403); // the request's own http:// origin is not where people are
    expect((await answer(fromPage)).status).toBe(200);
  });

  it('streams the view as server-sent events, again on every change', async () => {
    const s = inboxServer();
    const cookie = await s.signIn();
    const abort = new AbortController();
    const events = await s.request('/_frontmcp/questions/events', { cookie, signal: abort.signal });
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
    const next = async () => {
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += value;
        const m = /event: questions\ndata: (.*)\n\n/.exec(buffer);
        if (m) return JSON.parse(m[1]!);
      }
    };
    expect((await next()).questions).toEqual([]);
    const call = s.call('approve_deploy', { version: '4.0.0' });
    let view = await next();
    while (!view.questions[0]?.waiting) view = await next();
    expect(view.questions[0]).toMatchObject({ key: 'deploy-4.0.0', waiting: true });
    await s.post(`/_frontmcp/questions/${view.questions[0].id}/answer`, { action: 'cancel' }, { cookie });
    while (view.questions.length > 0) view = await next();
    expect((await call).result.structuredContent).toEqual({ approved: false });
    abort.abort();
    await reader.cancel().catch(() => {});
  });
});
