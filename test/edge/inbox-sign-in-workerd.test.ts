// People sign in to the inbox of a Worker with OpenID Connect at a real provider (oidc-provider on loopback), in workerd
// with Durable Objects: the flow starts on one isolate and its callback lands on another (the flow is sealed into a
// cookie, the session kept in the store), and the person then sees and answers exactly the questions their agent's
// calls filed under principal:<iss>#<sub>. The Worker is reached at its public https origin (http.publicUrl), so its
// cookies are Secure and the flow's is __Host-. And the provider down, a flow another tab started, a code spent twice.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers, type DurableWorkers, type Isolate } from '../helpers/durable-objects';
import { authorize, startIdp, type TestIdp } from '../helpers/oidc';
import { mcpRequest, read } from '../helpers/requests';
import { startWorker } from '../helpers/workerd';

const PUBLIC = 'https://inbox.example';
const CALLBACK = `${PUBLIC}/_frontmcp/sign-in/callback`;
/** What the start page's script sends: this tab's binding (64 hex characters, kept in the tab's sessionStorage). */
const BINDING = 'c3'.repeat(32);

let idp: TestIdp;
let workers: DurableWorkers;
beforeAll(async () => {
  const bundle = await bundleWorker('test/edge/entries/inbox-worker.ts');
  expect(bundle.nodeImports).toEqual([]);
  idp = await startIdp();
  // The inbox's client at the provider, as its operator registers it: confidential, with the Worker's callback.
  const registered = (await (
    await fetch(`${idp.issuer}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [CALLBACK],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      }),
    })
  ).json()) as { client_id: string; client_secret: string };
  workers = startDurableWorkers({
    code: bundle.code,
    bindings: {
      OIDC: JSON.stringify({ clientId: registered.client_id, clientSecret: registered.client_secret, issuer: idp.issuer }),
      PUBLIC_URL: PUBLIC,
      // Seals the flow's cookie so that any isolate opens it (refused without: the last test).
      MCP_ELICITATION_SECRET: 'inbox-sign-in-edge-secret-0123456789abcdef',
    },
  });
});
afterAll(async () => {
  await workers?.dispose();
  await idp?.close();
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const post = (to: Isolate, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  workers.send(to, path, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: PUBLIC, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: form(fields),
  });

/** A tools/call by `sub`'s agent at the provider (the host verified the caller), on isolate `to`. */
async function call(to: Isolate, sub: string, args: Record<string, unknown>) {
  const request = mcpRequest('tools/call', { name: 'approve_refund', arguments: args });
  const response = await workers.send(to, '/mcp', {
    method: 'POST',
    headers: { ...Object.fromEntries(request.headers), 'x-test-user': sub, 'x-test-issuer': idp.issuer },
    body: await request.text(),
  });
  return (await read(response)).body;
}

/** The browser's trip: the start page's POST on `start`, the provider's sign-in as `login`, the callback's POST on `end`. */
async function signIn(login: string, start: Isolate, end: Isolate): Promise<string> {
  const started = await post(start, '/_frontmcp/sign-in/oidc', { binding: BINDING });
  expect(started.status).toBe(303);
  const flowCookie = started.headers.get('set-cookie')!;
  expect(flowCookie).toMatch(/^__Host-parley_sign_in=v3\.[\w.-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600; Secure$/);
  const params = await authorize(new URL(started.headers.get('location')!), CALLBACK, login);
  const fields = { code: params.get('code')!, state: params.get('state')!, binding: BINDING };
  const finished = await post(end, '/_frontmcp/sign-in/callback', fields, { cookie: flowCookie.split(';')[0]! });
  expect(finished.status).toBe(200);
  const cookies = finished.headers.getSetCookie();
  const session = cookies.find((c) => c.startsWith('parley_inbox='))!;
  expect(session).toMatch(/^parley_inbox=[A-Za-z0-9_-]{43}; Path=\/_frontmcp; HttpOnly; SameSite=Strict; Max-Age=43200; Secure$/);
  return session.split(';')[0]!;
}

const questions = async (to: Isolate, cookie: string) => read(await workers.send(to, '/_frontmcp/questions', { headers: { cookie } }));

describe('inbox sign-in at an OpenID provider, on a Worker', () => {
  it('answers 503 while the provider is down, and signs in once it is back', { timeout: 30_000 }, async () => {
    idp.setDown(true);
    try {
      const down = await post('a', '/_frontmcp/sign-in/oidc', { binding: BINDING });
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('5');
    } finally {
      idp.setDown(false);
    }
    expect((await post('a', '/_frontmcp/sign-in/oidc', { binding: BINDING })).status).toBe(303);
    await expect.poll(() => workers.output()).toContain(`Inbox sign-in at ${idp.issuer} failed`);
  });

  it("starts on one isolate, ends on the other; each person sees and answers only their own subject's questions", {
    timeout: 60_000,
  }, async () => {
    const logged = workers.output().length;
    const first = await call('a', 'dana', { order: 'S-1', waitMs: 200 });
    expect(first.result).toMatchObject({ isError: true, _meta: { code: 'QUESTION_PENDING' } });
    await call('b', 'erin', { order: 'S-2', waitMs: 200 });

    const dana = await signIn('dana', 'a', 'b');
    const listed = await questions('a', dana);
    expect(listed.status).toBe(200);
    expect(listed.body.questions.map((q: { message: string }) => q.message)).toEqual(['Refund order S-1?']);
    const erin = await signIn('erin', 'b', 'a');
    expect((await questions('b', erin)).body.questions.map((q: { message: string }) => q.message)).toEqual(['Refund order S-2?']);

    const q = listed.body.questions[0] as { id: string };
    const answer = (cookie: string) =>
      workers.send('b', `/_frontmcp/questions/${q.id}/answer`, {
        method: 'POST',
        headers: { origin: PUBLIC, 'content-type': 'application/json', cookie },
        body: JSON.stringify({ action: 'accept', content: { approve: true, note: 'signed in at the provider' } }),
      });
    expect((await answer(erin)).status).toBe(404); // not erin's
    expect((await answer(dana)).status).toBe(200);
    const next = await call('a', 'dana', { order: 'S-1', waitMs: 200 });
    expect(next.result.structuredContent).toEqual({ approved: true, note: 'signed in at the provider' });

    // Signing out ends the session in the store: the cookie, replayed on the other isolate, opens nothing.
    const out = await workers.send('a', '/_frontmcp/sign-out', {
      redirect: 'manual',
      headers: { cookie: dana, 'sec-fetch-site': 'same-origin' },
    });
    expect(out.status).toBe(303);
    expect((await questions('b', dana)).status).toBe(401);
    expect(workers.output().slice(logged)).not.toContain('ERROR');
  });

  it("refuses another tab's flow, another page's callback, and a code spent twice", { timeout: 60_000 }, async () => {
    const started = await post('a', '/_frontmcp/sign-in/oidc', { binding: BINDING });
    const flow = started.headers.get('set-cookie')!.split(';')[0]!;
    const params = await authorize(new URL(started.headers.get('location')!), CALLBACK, 'mallory');
    const fields = { code: params.get('code')!, state: params.get('state')!, binding: BINDING };
    const finish = (f: Record<string, string>, headers: Record<string, string> = {}) =>
      post('b', '/_frontmcp/sign-in/callback', f, { cookie: flow, ...headers });
    expect((await finish({ ...fields, binding: 'd4'.repeat(32) })).status).toBe(400); // another tab's binding
    // Another origin's page: refused by the server's origin check (403) before the sign-in looks at it.
    expect((await finish(fields, { origin: 'https://elsewhere.example' })).status).toBe(403);
    expect((await post('b', '/_frontmcp/sign-in/callback', fields)).status).toBe(400); // no flow cookie: another browser
    expect((await finish({ ...fields, state: '__proto__' })).status).toBe(400);
    expect((await finish(fields)).status).toBe(200);
    // The same code again: the provider refuses it (a code is used once), and nobody is signed in.
    const again = await finish(fields);
    expect(again.status).toBe(401);
    expect(again.headers.getSetCookie().some((c) => c.startsWith('parley_inbox='))).toBe(false);
  });
});

describe('inbox sign-in on a Worker without a shared secret', () => {
  it('refuses to start, naming the secret to set', { timeout: 30_000 }, async () => {
    const { code } = await bundleWorker('test/edge/entries/inbox-worker.ts');
    const worker = startWorker(code, { OIDC: JSON.stringify({ clientId: 'inbox', issuer: 'https://idp.example' }) });
    try {
      expect((await worker.send(mcpRequest('tools/list'))).status).toBe(503);
      await expect
        .poll(() => worker.output())
        .toContain(
          "http.auth.oidc on an edge runtime needs MCP_ELICITATION_SECRET, the same for every isolate: a sign-in's cookie is sealed with it",
        );
    } finally {
      await worker.dispose();
    }
  });
});

describe('inbox sign-in on a Worker whose entry does not call enableOidcSignIn()', () => {
  it('refuses to start, naming the call', { timeout: 30_000 }, async () => {
    const { code } = await bundleWorker('test/edge/entries/inbox-worker.ts');
    const worker = startWorker(code, {
      OIDC: JSON.stringify({ clientId: 'inbox', issuer: 'https://idp.example' }),
      MCP_ELICITATION_SECRET: 'inbox-sign-in-edge-secret-0123456789abcdef',
      SIGN_IN: 'off',
    });
    try {
      expect((await worker.send(mcpRequest('tools/list'))).status).toBe(503);
      await expect
        .poll(() => worker.output())
        .toContain(
          "http.auth.oidc: OpenID Connect sign-in is not in this bundle: the Worker's entry must call enableOidcSignIn() from 'parley-mcp/inbox'",
        );
    } finally {
      await worker.dispose();
    }
  });
});

describe('a provider that redirects its metadata', () => {
  it('is an outage (503) on a Worker: the redirect is not followed', { timeout: 30_000 }, async () => {
    const asked: string[] = [];
    const server = createServer((request, response) => {
      asked.push(request.url ?? '');
      if (request.url?.startsWith('/elsewhere')) return response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      response.writeHead(302, { location: `/elsewhere${request.url}` }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { code } = await bundleWorker('test/edge/entries/inbox-worker.ts');
    const redirected = startDurableWorkers({
      code,
      bindings: {
        OIDC: JSON.stringify({ clientId: 'inbox', issuer }),
        PUBLIC_URL: PUBLIC,
        MCP_ELICITATION_SECRET: 'inbox-sign-in-edge-secret-0123456789abcdef',
      },
    });
    try {
      const started = await redirected.send('a', '/_frontmcp/sign-in/oidc', {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: PUBLIC, 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ binding: BINDING }),
      });
      expect(started.status).toBe(503);
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.filter((url) => url.startsWith('/elsewhere'))).toEqual([]);
      await expect.poll(() => redirected.output()).toContain('could not be read: it answered 302');
    } finally {
      await redirected.dispose();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
