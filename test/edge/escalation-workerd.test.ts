// Escalation and expiry of an addressed question on a Worker whose questions live in Durable Objects, in workerd, its
// people signed in at a real provider (oidc-provider on loopback: alice the caller, bob and carol in finance, dave on
// call). alice's call on isolate a files a question for finance and stops waiting. Before its escalation's deadline
// dave neither sees nor decides it; after it (the real clock) the cron route fires the deadline, dave's inbox on isolate
// b lists it, he accepts, and alice's next call gets the answer; the decision log exact. At an expiry the next call gets
// cancel with the reason, and a decision after it is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers, type DurableWorkers, type Isolate } from '../helpers/durable-objects';
import { authorize, type TestIdp } from '../helpers/oidc';
import { mcpRequest, read } from '../helpers/requests';
import { registerInbox, startPeopleIdp, yes } from '../inbox/addressees-helpers';

const PUBLIC = 'https://escalation.example';
const CALLBACK = `${PUBLIC}/_frontmcp/sign-in/callback`;
const BINDING = 'e7'.repeat(32);
const AFTER_MS = 1_500;

let idp: TestIdp;
let workers: DurableWorkers;
const cookies = new Map<string, string>();
const cookie = (login: string) => cookies.get(login)!;
const by = (login: string) => `${idp.issuer}#${login}`;
const at = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  const bundle = await bundleWorker('test/edge/entries/escalation-worker.ts');
  expect(bundle.nodeImports).toEqual([]);
  idp = await startPeopleIdp();
  const client = await registerInbox(idp, [CALLBACK]);
  workers = startDurableWorkers({
    code: bundle.code,
    bindings: {
      OIDC: JSON.stringify({ ...client, issuer: idp.issuer, scope: 'openid email groups' }),
      PUBLIC_URL: PUBLIC,
      MCP_ELICITATION_SECRET: 'escalation-edge-secret-0123456789abc',
    },
  });
  for (const login of ['alice', 'bob', 'dave']) cookies.set(login, await signIn(login));
}, 60_000);
afterAll(async () => {
  await workers?.dispose();
  await idp?.close();
});

/** alice's call (her agent's host verified her at the provider), on isolate `to`. */
async function call(to: Isolate, args: Record<string, unknown>) {
  const request = mcpRequest('tools/call', { name: 'refund_later', arguments: args });
  const response = await workers.send(to, '/mcp', {
    method: 'POST',
    headers: { ...Object.fromEntries(request.headers), 'x-test-user': 'alice', 'x-test-issuer': idp.issuer },
    body: await request.text(),
  });
  return (await read(response)).body;
}

const post = (to: Isolate, path: string, body: string, headers: Record<string, string>) =>
  workers.send(to, path, { method: 'POST', redirect: 'manual', headers: { origin: PUBLIC, ...headers }, body });

/** A browser's sign-in as `login`: started on isolate a, its callback on b. */
async function signIn(login: string): Promise<string> {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const started = await post('a', '/_frontmcp/sign-in/oidc', new URLSearchParams({ binding: BINDING }).toString(), form);
  expect(started.status).toBe(303);
  const flow = started.headers.get('set-cookie')!.split(';')[0]!;
  const back = await authorize(new URL(started.headers.get('location')!), CALLBACK, login);
  const fields = new URLSearchParams({ code: back.get('code')!, state: back.get('state')!, binding: BINDING }).toString();
  const finished = await post('b', '/_frontmcp/sign-in/callback', fields, { ...form, cookie: flow });
  expect(finished.status).toBe(200);
  return finished.headers
    .getSetCookie()
    .find((c) => c.startsWith('parley_inbox='))!
    .split(';')[0]!;
}

const questions = async (to: Isolate, login: string) =>
  (await read(await workers.send(to, '/_frontmcp/questions', { headers: { cookie: cookie(login) } }))).body.questions as any[];

const answer = async (to: Isolate, login: string, id: string) =>
  read(
    await post(to, `/_frontmcp/questions/${id}/answer`, JSON.stringify(yes), { 'content-type': 'application/json', cookie: cookie(login) }),
  );

/** The decision log of a question, as alice (who asked it) reads it. */
async function log(to: Isolate, id: string): Promise<Array<Record<string, unknown>>> {
  const response = await workers.send(to, `/_frontmcp/questions/${id}/log`, { headers: { cookie: cookie('alice') } });
  return (await read(response)).body.entries;
}

/** The cron route (GET /_frontmcp/deadlines): fires what is due; says how many nudges it sent (none: no webhook here). */
const deadlines = async (to: Isolate) => read(await workers.send(to, '/_frontmcp/deadlines'));

/** The question `message` as bob (in finance from its filing) sees it. */
async function filed(message: string) {
  const found = (await questions('a', 'bob')).find((q) => q.message === message);
  expect(found).toBeDefined();
  return found as { id: string; escalated?: unknown };
}

describe('escalation and expiry on a Worker with Durable Objects', () => {
  it('after its deadline the question is for dave too, on the other isolate; the log exact', { timeout: 30_000 }, async () => {
    const escalate = [{ afterMs: AFTER_MS, to: [{ subject: 'dave' }] }];
    const first = await call('a', { order: 'X1', waitMs: 200, escalate });
    const filedAt = Date.now();
    expect(first.result).toMatchObject({ isError: true, _meta: { code: 'QUESTION_PENDING' } });
    const { id, escalated } = await filed('Refund order X1?');
    expect(escalated).toBeUndefined();
    // Before the deadline: not dave's to see or answer, on either isolate.
    expect((await questions('b', 'dave')).map((q) => q.id)).not.toContain(id);
    expect(await answer('a', 'dave', id)).toMatchObject({ status: 403, body: { error: 'not_addressed' } });
    expect(Date.now() - filedAt).toBeLessThan(AFTER_MS); // the checks above came before the deadline

    await sleep(AFTER_MS - (Date.now() - filedAt) + 200);
    const common = { question: id, key: 'refund-X1', tool: 'refund_later' };
    const asked = { at, event: 'asked', ...common, by: by('alice'), channel: 'call' };
    const viewed = (login: string) => ({ at, event: 'viewed', ...common, by: by(login), channel: 'json' });
    const fired = { at, event: 'escalated', ...common, by: 'parley', channel: 'deadline', to: [{ subject: 'dave' }] };
    expect(await log('b', id)).toEqual([asked, viewed('bob')]); // due, not yet fired: a log read fires nothing
    expect(await deadlines('a')).toMatchObject({ status: 200, body: { sent: 0 } });
    expect(await log('b', id)).toEqual([asked, viewed('bob'), fired]); // the cron route fired it, on the other isolate
    expect(await deadlines('b')).toMatchObject({ status: 200, body: { sent: 0 } });
    const forDave = (await questions('b', 'dave')).find((q) => q.id === id);
    expect(forDave).toMatchObject({ id, askedBy: by('alice'), decided: false, escalated: { to: [{ subject: 'dave' }] } });
    expect(await answer('b', 'dave', id)).toMatchObject({ status: 200, body: { status: 'answered' } });
    const next = await call('b', { order: 'X1', waitMs: 5_000, escalate });
    expect(next.result.structuredContent).toEqual({ status: 'accept', decisions: [`${by('dave')} accept`] });

    expect(await log('a', id)).toEqual([
      asked,
      viewed('bob'),
      fired, // once, though both isolates' cron routes and dave's inbox read came after its deadline
      viewed('dave'),
      { at, event: 'answered', ...common, by: by('dave'), channel: 'json', action: 'accept' },
    ]);
    const entries = await log('b', id);
    const escalatedAt = Date.parse(entries.find((e) => e.event === 'escalated')!.at as string);
    expect(escalatedAt - Date.parse(entries[0]!.at as string)).toBeGreaterThanOrEqual(AFTER_MS - 50);
    expect(workers.output()).not.toContain('ERROR');
  });

  it('at its expiry the next call gets cancel and the reason; a decision after it is refused', { timeout: 30_000 }, async () => {
    const expire = { afterMs: AFTER_MS, reason: 'Nobody in finance decided in time' };
    const first = await call('a', { order: 'X2', waitMs: 200, expire });
    const filedAt = Date.now();
    expect(first.result).toMatchObject({ isError: true, _meta: { code: 'QUESTION_PENDING' } });
    const { id } = await filed('Refund order X2?');

    await sleep(AFTER_MS - (Date.now() - filedAt) + 200);
    const common = { question: id, key: 'refund-X2', tool: 'refund_later' };
    const asked = { at, event: 'asked', ...common, by: by('alice'), channel: 'call' };
    const viewed = { at, event: 'viewed', ...common, by: by('bob'), channel: 'json' };
    const expired = { at, event: 'expired', ...common, by: 'parley', channel: 'deadline', action: 'cancel' };
    expect(await log('a', id)).toEqual([asked, viewed]);
    expect(await deadlines('b')).toMatchObject({ status: 200, body: { sent: 0 } });
    expect(await log('a', id)).toEqual([asked, viewed, expired]); // the cron route expired it, before any decision
    expect(await answer('a', 'bob', id)).toMatchObject({ status: 409, body: { error: 'already_answered' } });
    const next = await call('b', { order: 'X2', waitMs: 5_000, expire });
    expect(next.result.structuredContent).toEqual({ status: 'cancel', decisions: [], reason: expire.reason });
    expect(await log('b', id)).toEqual([asked, viewed, expired]); // the refused decision is not logged
    expect(workers.output()).not.toContain('ERROR');
  });
});
