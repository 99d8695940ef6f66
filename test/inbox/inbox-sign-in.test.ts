// People sign in to the inbox with OpenID Connect at a real provider (oidc-provider on loopback), in chromium: each
// person sees exactly the questions their agent's calls filed under principal:<iss>#<sub>, nobody else's; signing out
// ends the session in the store. Then the callback's refusals and the provider down, over plain HTTP.
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/inbox/server';
import { bearer } from '../helpers/bearer';
import { launchChromium } from '../helpers/chromium';
import { authorize, startIdp, type TestIdp } from '../helpers/oidc';
import { startRedis } from '../helpers/redis';
import { mcpRequest } from '../helpers/requests';

const SECRET = 'inbox-sign-in-test-secret';
const quiet = { debug() {}, info() {}, warn() {}, error(_line: string) {} };
let idp: TestIdp;
let server: RunningServer;
let origin: string;
let browser: Browser;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** Registers the inbox at the provider (dynamic registration) as a confidential web client with this redirect URI. */
async function registerInbox(redirectUri: string): Promise<{ clientId: string; clientSecret: string }> {
  const response = await fetch(`${idp.issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    }),
  });
  const body = (await response.json()) as { client_id: string; client_secret: string };
  return { clientId: body.client_id, clientSecret: body.client_secret };
}

/** A server on a port known beforehand (the provider holds its redirect URI), signing people in at the provider. */
async function start(logger = quiet, extra: Record<string, unknown> = {}, more: Record<string, unknown> = {}): Promise<RunningServer> {
  const port = await freePort();
  const client = await registerInbox(`http://127.0.0.1:${port}/_frontmcp/sign-in/callback`);
  return serve(
    {
      ...config,
      info: { name: `sign-in-${process.pid}-${port}`, version: '1' },
      logger,
      // Callers' tokens name the same issuer the inbox signs people in at (HS256 here: the agent's side is not under test).
      auth: { secret: SECRET, issuer: idp.issuer },
      http: { auth: { oidc: client }, ...extra },
      ...more,
    },
    { port, quiet: true },
  );
}

/** A person's agent asks a persistent question; the call gives up waiting at once and the question stays in the inbox. */
async function fileQuestion(sub: string, version: string): Promise<void> {
  const request = mcpRequest(
    'tools/call',
    { name: 'approve_deploy', arguments: { version, waitMs: 50 } },
    { url: server.url, headers: { authorization: await bearer(sub, SECRET, idp.issuer) } },
  );
  await (await fetch(request)).text();
}

beforeAll(async () => {
  idp = await startIdp();
  server = await start();
  origin = new URL(server.url).origin;
  browser = await launchChromium();
  await fileQuestion('alice', '1.0');
  await fileQuestion('bob', '2.0');
});
afterAll(async () => {
  await browser?.close();
  await server?.close({ graceMs: 0 });
  await idp?.close();
});

/** Opens the inbox in a fresh browser, signs in at the provider as `login`, and waits for the inbox to say who. */
async function signIn(login: string): Promise<BrowserContext> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(`${origin}/_frontmcp/inbox`);
  await page.getByText('Not signed in').waitFor();
  // The way in is the provider's sign-in, said in the page's body; there is no one-time link to ask for.
  await page.getByText('Sign in to see the questions waiting for you.').waitFor();
  expect(await page.locator('#status').textContent()).not.toContain('one-time');
  await page.locator('#status').getByRole('link', { name: 'Sign in' }).click();
  await page.locator('input[name=login]').fill(login); // the provider's login page
  await page.locator('input[name=password]').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click(); // its consent page
  await page.getByText(`Questions for ${idp.issuer}#${login}`).waitFor();
  expect(page.url()).toBe(`${origin}/_frontmcp/inbox`);
  return context;
}

describe('people signing in to the inbox at the provider', () => {
  it("shows each person exactly their own subject's questions, in a sealed HttpOnly SameSite cookie; signing out ends it", async () => {
    const alice = await signIn('alice');
    const page = alice.pages()[0]!;
    await page.locator('article.question', { hasText: 'Deploy 1.0?' }).waitFor();
    expect(await page.locator('article.question').count()).toBe(1);
    const [session] = (await alice.cookies(`${origin}/_frontmcp/inbox`)).filter((c) => c.name === 'parley_inbox');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/_frontmcp', secure: false });
    // The cookie is an opaque id (the session is sealed in the store), not the person's name or the provider's token.
    expect(session!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const bob = await signIn('bob');
    const bobsPage = bob.pages()[0]!;
    await bobsPage.locator('article.question', { hasText: 'Deploy 2.0?' }).waitFor();
    expect(await bobsPage.locator('article.question').count()).toBe(1);

    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.getByText('Not signed in').waitFor();
    expect((await alice.cookies(`${origin}/_frontmcp/inbox`)).some((c) => c.name === 'parley_inbox')).toBe(false);
    // The old cookie, replayed, opens nothing: the session ended in the store, not only in the browser.
    const replay = await fetch(`${origin}/_frontmcp/questions`, { headers: { cookie: `parley_inbox=${session!.value}` } });
    expect(replay.status).toBe(401);
    await alice.close();
    await bob.close();
  });
});

/** What the start page's script sends: this tab's binding, from the server's own page (its Origin). */
const BINDING = 'b1'.repeat(32);
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const begin = (base: string, headers: Record<string, string> = {}, binding = BINDING) =>
  fetch(`${base}/_frontmcp/sign-in/oidc`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: form({ binding }),
  });
const flowCookieOf = (response: Response) => response.headers.get('set-cookie')!.split(';')[0]!;

describe('the sign-in routes over HTTP', () => {
  /** What the callback page's script sends: the provider's code and state, and the tab's binding. */
  const finish = (fields: Record<string, string>, cookie?: string, from = origin) =>
    fetch(`${origin}/_frontmcp/sign-in/callback`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: from, 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      body: form(fields),
    });

  it('sends the browser to the provider with PKCE, the flow sealed into a Lax cookie, from its own page only', async () => {
    const startPage = await fetch(`${origin}/_frontmcp/sign-in/oidc`);
    expect(startPage.status).toBe(200);
    expect(await startPage.text()).toContain('<script src="/_frontmcp/sign-in/flow.js"');
    expect(startPage.headers.get('set-cookie')).toBeNull();
    const response = await begin(origin);
    expect(response.status).toBe(303);
    const to = new URL(response.headers.get('location')!);
    expect(to.origin).toBe(idp.issuer);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('redirect_uri')).toBe(`${origin}/_frontmcp/sign-in/callback`);
    const nonce = to.searchParams.get('nonce')!;
    const flow = response.headers.get('set-cookie')!;
    expect(flow).toMatch(/^parley_sign_in=v3\.[\w.-]+; Path=\/_frontmcp\/sign-in; HttpOnly; SameSite=Lax; Max-Age=600$/);
    // Sealed: neither the state, the nonce nor the binding can be read from it.
    for (const secret of [to.searchParams.get('state')!, nonce, BINDING]) expect(flow).not.toContain(secret);
    // Not from another page (another port's included), nor without a binding.
    expect((await begin(origin, { origin: 'http://127.0.0.1:1' })).status).toBe(400);
    expect((await begin(origin, { 'sec-fetch-site': 'same-site' })).status).toBe(400);
    expect((await begin(origin, {}, 'short')).status).toBe(400);
    expect((await begin(origin, {}, '__proto__')).status).toBe(400);
    expect((await begin(origin, { 'content-type': 'application/json' })).status).toBe(400); // not a form
    expect((await begin(origin, {}, BINDING + 'x'.repeat(8192))).status).toBe(400); // past the form's 4 KB
  });

  it("refuses a callback that is not this browser tab's flow, another page's, and the provider's refusal", async () => {
    const started = await begin(origin);
    const state = new URL(started.headers.get('location')!).searchParams.get('state')!;
    const cookie = flowCookieOf(started);
    const right = { code: 'never-issued', state, binding: BINDING };
    expect((await finish(right)).status).toBe(400); // no cookie: another browser's link
    expect((await finish(right, 'parley_sign_in=other')).status).toBe(400);
    expect((await finish({ ...right, binding: 'b2'.repeat(32) }, cookie)).status).toBe(400); // another tab's binding
    expect((await finish({ ...right, state: 'another' }, cookie)).status).toBe(400);
    expect((await finish(right, cookie, 'http://127.0.0.1:1')).status).toBe(400); // another origin's page
    // The right flow with a code the provider never issued: the provider refuses it, and the flow's cookie is spent.
    const refused = await finish(right, cookie);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toMatch(/^parley_sign_in=; Path=\/_frontmcp\/sign-in; .*Max-Age=0/);
    const page = await fetch(`${origin}/_frontmcp/sign-in/callback?code=x&state=${state}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post" action="/_frontmcp/sign-in/callback">');
    expect((await fetch(`${origin}/_frontmcp/sign-in/callback?error=access_denied&state=x`)).status).toBe(401);
  });

  it('refuses a sign-out another site links to', async () => {
    const response = await fetch(`${origin}/_frontmcp/sign-out`, { headers: { 'sec-fetch-site': 'cross-site' }, redirect: 'manual' });
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('answers 503 with a log line while the provider is down, then signs in again once it is back', async () => {
    const errors: string[] = [];
    const fresh = await start({ ...quiet, error: (line: string) => errors.push(line) });
    const base = new URL(fresh.url).origin;
    try {
      idp.setDown(true);
      const down = await begin(base);
      expect(down.status).toBe(503);
      expect(errors.join('\n')).toContain('Inbox sign-in at');
      idp.setDown(false);
      expect((await begin(base)).status).toBe(303);
    } finally {
      idp.setDown(false);
      await fresh.close({ graceMs: 0 });
    }
  });

  it('behind a TLS proxy (trustProxy): the redirect URI is the public https one and the flow cookie is __Host-', async () => {
    const proxied = await start(quiet, { trustProxy: true, allowedHosts: ['inbox.example'] });
    try {
      const response = await begin(new URL(proxied.url).origin, {
        origin: 'https://inbox.example',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'inbox.example',
      });
      expect(response.status).toBe(303);
      const to = new URL(response.headers.get('location')!);
      expect(to.searchParams.get('redirect_uri')).toBe('https://inbox.example/_frontmcp/sign-in/callback');
      expect(response.headers.get('set-cookie')).toMatch(/^__Host-parley_sign_in=v3\.[\w.-]+; Path=\/; HttpOnly; .*; Secure$/);
    } finally {
      await proxied.close({ graceMs: 0 });
    }
  });
});

describe('sign-in flows before anyone signs in', () => {
  it('keep nothing in the store: 300 starts leave it as it was', async () => {
    const redis = await startRedis();
    const client = new Redis(redis.url);
    const stored = await start(quiet, {}, { elicitation: { enabled: true, persistent: { storage: { type: 'redis', redis: redis.url } } } });
    const base = new URL(stored.url).origin;
    try {
      const before = await client.dbsize();
      for (let i = 0; i < 300; i++) {
        const response = await fetch(`${base}/_frontmcp/sign-in/oidc`, { redirect: 'manual' });
        await response.arrayBuffer();
        // Today's route answers with a page, and its script's POST begins: an attacker's client sends both.
        if (response.status === 200) expect((await begin(base, {}, BINDING)).status).toBe(303);
      }
      expect(await client.dbsize()).toBe(before);
    } finally {
      await stored.close({ graceMs: 0 });
      client.disconnect();
      await redis.stop();
    }
  });
});

describe('a sign-in planted from another loopback port', () => {
  /**
   * What an attacker does in their own browser first: starts a sign-in at the victim's server, signs in at the provider
   * as themselves, and keeps the flow's cookie and the callback's code and state instead of following it.
   */
  async function attackersFlow(): Promise<{ cookie: string; code: string; state: string }> {
    let started = await fetch(`${origin}/_frontmcp/sign-in/oidc`, { redirect: 'manual' });
    // A client of its own sends any Origin, so the start page's POST is no obstacle to the attacker.
    if (started.status === 200) started = await begin(origin);
    const cookie = flowCookieOf(started);
    const params = await authorize(new URL(started.headers.get('location')!), `${origin}/_frontmcp/sign-in/callback`, 'mallory');
    return { cookie, code: params.get('code')!, state: params.get('state')! };
  }

  /** A page of the attacker's on another loopback port: plants the flow cookie (cookies ignore ports), then `then`. */
  async function attackerSite(answer: (flow: { cookie: string; code: string; state: string }) => string): Promise<Server> {
    const flow = await attackersFlow();
    const site = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html', 'set-cookie': `${flow.cookie}; Path=/_frontmcp/sign-in` }).end(answer(flow));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    return site;
  }

  const callbackUrl = (flow: { code: string; state: string }) =>
    `${origin}/_frontmcp/sign-in/callback?code=${encodeURIComponent(flow.code)}&state=${encodeURIComponent(flow.state)}`;

  it.each([
    // The victim's browser is sent to the callback with the attacker's code and state, its cookie planted.
    [
      'sent to the callback',
      (flow: { code: string; state: string }) => `<script>location.href = ${JSON.stringify(callbackUrl(flow))}</script>`,
    ],
    // Or it posts the callback's form itself, as the server's own page would.
    [
      'posting the callback form',
      (flow: { code: string; state: string }) =>
        `<form method="post" action="${origin}/_frontmcp/sign-in/callback"><input name="code" value="${flow.code}"><input name="state" value="${flow.state}"><input name="binding" value="${BINDING}"></form><script>document.forms[0].submit()</script>`,
    ],
  ])("does not sign the victim's browser in as the attacker when %s", async (_way, answer) => {
    const site = await attackerSite(answer);
    const victim = await browser.newContext();
    try {
      const page = await victim.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
      await page.waitForURL(`${origin}/_frontmcp/**`);
      await page.waitForLoadState('networkidle');
      await page.goto(`${origin}/_frontmcp/inbox`);
      await page.getByText('Not signed in').waitFor();
      expect((await victim.cookies(origin)).map((c) => c.name)).not.toContain('parley_inbox');
    } finally {
      await victim.close();
      await new Promise((resolve) => site.close(resolve));
    }
  });
});

describe('startup', () => {
  it('refuses http.auth.oidc without an issuer to sign people in at, naming the setting', async () => {
    await expect(
      serve(
        {
          ...config,
          info: { name: 'no-issuer', version: '1' },
          logger: quiet,
          auth: { secret: SECRET },
          http: { auth: { oidc: { clientId: 'inbox' } } },
        },
        { port: 0, quiet: true },
      ),
    ).rejects.toThrow(/http\.auth\.oidc: .*set auth\.issuer/);
  });
});
