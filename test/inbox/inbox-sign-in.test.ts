// People sign in to the inbox with OpenID Connect at a real provider (oidc-provider on loopback), in chromium: each
// person sees exactly the questions their agent's calls filed under principal:<iss>#<sub>, nobody else's; signing out
// ends the session in the store. Then the callback's refusals and the provider down, over plain HTTP.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/inbox/server';
import { bearer } from '../helpers/bearer';
import { launchChromium } from '../helpers/chromium';
import { startIdp, type TestIdp } from '../helpers/oidc';
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
async function start(logger = quiet, extra: Record<string, unknown> = {}): Promise<RunningServer> {
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

describe('the sign-in routes over HTTP', () => {
  const callback = (query: string, cookie?: string) =>
    fetch(`${origin}/_frontmcp/sign-in/callback?${query}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' });

  it('sends the browser to the provider with PKCE and a state bound to a Lax cookie', async () => {
    const response = await fetch(`${origin}/_frontmcp/sign-in/oidc`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const to = new URL(response.headers.get('location')!);
    expect(to.origin).toBe(idp.issuer);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('redirect_uri')).toBe(`${origin}/_frontmcp/sign-in/callback`);
    expect(to.searchParams.get('nonce')).toBeTruthy();
    const flow = response.headers.get('set-cookie')!;
    expect(flow).toContain(`parley_sign_in=${to.searchParams.get('state')};`);
    expect(flow).toMatch(/HttpOnly; SameSite=Lax/);
  });

  it("refuses a callback whose state is not this browser's, a state used twice, and the provider's refusal", async () => {
    const started = await fetch(`${origin}/_frontmcp/sign-in/oidc`, { redirect: 'manual' });
    const state = new URL(started.headers.get('location')!).searchParams.get('state')!;
    expect((await callback(`code=x&state=${state}`)).status).toBe(400); // no cookie: another browser's link
    expect((await callback(`code=x&state=${state}`, 'parley_sign_in=other')).status).toBe(400);
    // The right state with a code the provider never issued: the provider refuses it, and the state is spent.
    const refused = await callback(`code=never-issued&state=${state}`, `parley_sign_in=${state}`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect((await callback(`code=never-issued&state=${state}`, `parley_sign_in=${state}`)).status).toBe(400);
    expect((await callback('error=access_denied&state=x', 'parley_sign_in=x')).status).toBe(401);
  });

  it('refuses a sign-out another site links to', async () => {
    const response = await fetch(`${origin}/_frontmcp/sign-out`, { headers: { 'sec-fetch-site': 'cross-site' }, redirect: 'manual' });
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('answers 503 with a log line while the provider is down, then signs in again once it is back', async () => {
    const errors: string[] = [];
    const fresh = await start({ ...quiet, error: (line: string) => errors.push(line) });
    try {
      idp.setDown(true);
      const down = await fetch(`${fresh.url.replace(/\/mcp$/, '')}/_frontmcp/sign-in/oidc`, { redirect: 'manual' });
      expect(down.status).toBe(503);
      expect(errors.join('\n')).toContain('Inbox sign-in at');
      idp.setDown(false);
      const back = await fetch(`${new URL(fresh.url).origin}/_frontmcp/sign-in/oidc`, { redirect: 'manual' });
      expect(back.status).toBe(302);
    } finally {
      idp.setDown(false);
      await fresh.close({ graceMs: 0 });
    }
  });

  it('behind a TLS proxy (trustProxy): the redirect URI is the public https one and the cookies are Secure', async () => {
    const proxied = await start(quiet, { trustProxy: true, allowedHosts: ['inbox.example'] });
    try {
      const response = await fetch(`${new URL(proxied.url).origin}/_frontmcp/sign-in/oidc`, {
        redirect: 'manual',
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'inbox.example' },
      });
      expect(response.status).toBe(302);
      const to = new URL(response.headers.get('location')!);
      expect(to.searchParams.get('redirect_uri')).toBe('https://inbox.example/_frontmcp/sign-in/callback');
      expect(response.headers.get('set-cookie')).toMatch(/; Secure$/);
    } finally {
      await proxied.close({ graceMs: 0 });
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
