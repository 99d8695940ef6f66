// Action links in a real headless chromium: a click from another site (as from a chat message) opens the confirm page
// without the question (the inbox's SameSite=Strict cookie does not come along), its button answers once as the
// signed-in owner, the link then says it was used, and another site's auto-posted form answers nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, LoopbackTokenAuth, Tool, ToolContext, z } from 'parley-mcp';
import { launchChromium } from '../helpers/chromium';
import { ISSUER, policyServer, type PolicyServer } from './unanswered-helpers';

@Tool({ name: 'rollback', inputSchema: { release: z.string() } })
class Rollback extends ToolContext {
  async execute({ release }: { release: string }) {
    const answer = await this.elicit(`Roll back ${release}?`, z.object({ confirm: z.enum(['roll back']) }), { ttl: 4_000 });
    return { status: answer.status, confirm: answer.content?.confirm ?? null };
  }
}

@App({ id: 'browser-links', tools: [Rollback] })
class BrowserLinks {}

let s: PolicyServer;
let browser: Browser;
let hook: Server;
let bodies: string[];
/** Another site (localhost, not 127.0.0.1): serves whatever page a test puts here. */
let other: Server;
let otherPage = '';
let otherOrigin: string;

const listen = async (server: Server, host: string) => {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  bodies = [];
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      res.end();
    });
  });
  const hookPort = await listen(hook, '127.0.0.1');
  other = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(otherPage);
  });
  otherOrigin = `http://localhost:${await listen(other, '127.0.0.1')}`;
  s = await policyServer({
    apps: [BrowserLinks],
    elicitation: {
      enabled: true,
      persistent: {
        storage: { type: 'memory' },
        notify: { url: `http://127.0.0.1:${hookPort}/hook`, secret: 'browser-action-links-secret' },
      },
      unanswered: { afterMs: 100, then: 'inbox' },
    },
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
  await new Promise((r) => hook?.close(r));
  await new Promise((r) => other?.close(r));
});

async function nudge(sub: string, release: string): Promise<{ accept: string; decline: string }> {
  const before = bodies.length;
  expect((await s.call(sub, 'rollback', { release })).resultType).toBe('input_required');
  for (let i = 0; i < 200 && bodies.length === before; i++) await new Promise((r) => setTimeout(r, 25));
  return JSON.parse(bodies.at(-1)!).actions;
}

async function signedInPage(sub: string) {
  const { code } = await LoopbackTokenAuth.createCode({ subject: `principal:${ISSUER}#${sub}`, server: s.name });
  const page = await browser.newPage();
  page.setDefaultTimeout(8000);
  const problems: string[] = [];
  // A page's own error status (the 410 of a spent link) is not a problem; a CSP refusal or a failed style is.
  page.on(
    'console',
    (m) =>
      m.type() === 'error' &&
      !(m.text().startsWith('Failed to load resource') && m.location().url.includes('/_frontmcp/act?')) &&
      !m.location().url.endsWith('/favicon.ico') &&
      problems.push(m.text()),
  );
  await page.goto(`${s.url.origin}/_frontmcp/inbox#code=${code}`);
  await page.getByText(`Questions for ${ISSUER}#${sub}`).waitFor();
  return { page, problems };
}

describe('action links in chromium', () => {
  it('a click from another site confirms, answers once as the owner, then says it was used', async () => {
    const { accept } = await nudge('kay', '9.1');
    const { page, problems } = await signedInPage('kay');
    otherPage = `<!doctype html><a id="go" href="${accept}">Roll back</a>`;
    await page.goto(otherOrigin);
    await page.click('#go');
    await page.getByRole('heading', { name: 'Accept this question?' }).waitFor();
    expect(await page.content()).not.toContain('Roll back 9.1?'); // the cross-site click brought no session
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('heading', { name: 'Accepted' }).waitFor();
    expect(await page.textContent('main')).toContain('Roll back 9.1?');
    expect((await s.call('kay', 'rollback', { release: '9.1' })).structuredContent).toEqual({ status: 'accept', confirm: 'roll back' });
    // Opened again (the owner's own navigation, so the session comes along): the link is spent.
    await page.goto(accept);
    await page.getByRole('heading', { name: 'This link was already used' }).waitFor();
    expect(problems, problems.join('; ')).toEqual([]);
    await page.close();
  });

  it('shows the owner the question, and another site auto-posting the link answers nothing', async () => {
    const { decline } = await nudge('lea', '9.2');
    const { page } = await signedInPage('lea');
    await page.goto(decline);
    await page.getByRole('heading', { name: 'Roll back 9.2?' }).waitFor(); // a navigation of the person's own: signed in
    otherPage = `<!doctype html><form id="f" method="post" action="${decline}"></form><script>document.getElementById('f').submit()</script>`;
    const refused = page.waitForResponse((r) => r.url() === decline && r.request().method() === 'POST');
    await page.goto(otherOrigin);
    expect((await refused).status()).toBe(403);
    const person = await s.person('lea');
    expect((await person.waitFor('Roll back 9.2?')).state).toBe('open');
    // The link was not used up by the refused POST: the person still declines with it.
    await page.goto(decline);
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.getByRole('heading', { name: 'Declined' }).waitFor();
    await page.close();
  });
});
