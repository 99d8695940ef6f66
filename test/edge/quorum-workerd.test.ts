// A 2-of-2 quorum on a Worker whose questions live in Durable Objects, in workerd: alice's call on isolate a files a
// question for finance and stops waiting; bob, signed in at the provider (oidc-provider on loopback), decides on
// isolate a and carol on isolate b; alice's next call, on b, gets the answer with both decisions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers, type DurableWorkers, type Isolate } from '../helpers/durable-objects';
import { authorize, type TestIdp } from '../helpers/oidc';
import { mcpRequest, read } from '../helpers/requests';
import { registerInbox, startPeopleIdp, yes } from '../inbox/addressees-helpers';

const PUBLIC = 'https://quorum.example';
const CALLBACK = `${PUBLIC}/_frontmcp/sign-in/callback`;
const BINDING = 'e5'.repeat(32);

let idp: TestIdp;
let workers: DurableWorkers;
beforeAll(async () => {
  const bundle = await bundleWorker('test/edge/entries/quorum-worker.ts');
  expect(bundle.nodeImports).toEqual([]);
  idp = await startPeopleIdp();
  const client = await registerInbox(idp, [CALLBACK]);
  workers = startDurableWorkers({
    code: bundle.code,
    bindings: {
      OIDC: JSON.stringify({ ...client, issuer: idp.issuer, scope: 'openid email groups' }),
      PUBLIC_URL: PUBLIC,
      MCP_ELICITATION_SECRET: 'quorum-edge-secret-0123456789abcdef',
    },
  });
}, 60_000);
afterAll(async () => {
  await workers?.dispose();
  await idp?.close();
});

/** alice's call (her agent's host verified her at the provider), on isolate `to`. */
async function call(to: Isolate, order: string, waitMs: number) {
  const request = mcpRequest('tools/call', { name: 'refund_quorum', arguments: { order, waitMs } });
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

const questions = async (to: Isolate, cookie: string) =>
  (await read(await workers.send(to, '/_frontmcp/questions', { headers: { cookie } }))).body.questions as any[];

const answer = async (to: Isolate, cookie: string, id: string) =>
  read(await post(to, `/_frontmcp/questions/${id}/answer`, JSON.stringify(yes), { 'content-type': 'application/json', cookie }));

describe('a quorum on a Worker with Durable Objects', () => {
  it('takes bob on a and carol on b; the next call gets both decisions', { timeout: 60_000 }, async () => {
    const first = await call('a', 'W1', 200);
    expect(first.result).toMatchObject({ isError: true, _meta: { code: 'QUESTION_PENDING' } });
    const [bob, carol, alice] = [await signIn('bob'), await signIn('carol'), await signIn('alice')];
    const listed = await questions('a', bob);
    expect(listed.map((q) => q.message)).toEqual(['Refund order W1?']);
    expect(await questions('b', alice)).toEqual([]); // the caller is no addressee
    const id = listed[0].id as string;
    expect(await answer('a', bob, id)).toMatchObject({ status: 200, body: { status: 'decided', accepts: 1, quorum: 2 } });
    expect((await answer('b', bob, id)).status).toBe(409); // each person decides once, on any isolate
    const shown = (await questions('b', carol))[0];
    expect(shown.decisions.map((d: { by: string }) => d.by)).toEqual([`${idp.issuer}#bob`]);
    expect((await answer('b', carol, id)).status).toBe(200);
    const next = await call('b', 'W1', 5_000);
    expect(next.result.structuredContent).toEqual({
      status: 'accept',
      decisions: [`${idp.issuer}#bob accept`, `${idp.issuer}#carol accept`],
    });
    expect(workers.output()).not.toContain('ERROR');
  });
});
