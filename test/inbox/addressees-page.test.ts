// A 2-of-2 question to finance on the inbox page, in a real headless chromium signed in at a real OpenID provider: bob
// sees for whom it is and who asked, decides, and sees his decision counted (one of two, his form closed); carol's
// decision ends it, the question leaves bob's page, and alice's call gets both decisions.
import type { Browser } from 'playwright-core';
import type { RunningServer } from 'parley-mcp/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium';
import type { TestIdp } from '../helpers/oidc';
import { mcpRequest } from '../helpers/requests';
import { callerToken, signIn, startPeopleIdp, startServers, yes } from './addressees-helpers';

let idp: TestIdp;
let server: RunningServer;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  idp = await startPeopleIdp();
  server = (await startServers(idp, { name: `addressees-page-${process.pid}` }))[0]!;
  origin = new URL(server!.url).origin;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close({ graceMs: 0 });
  await idp?.close();
});

describe('an addressed question with a quorum on the inbox page', () => {
  it('shows bob for whom and who asked, counts his decision, and leaves once carol decides', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${origin}/_frontmcp/inbox`);
    await page.locator('#status').getByRole('link', { name: 'Sign in' }).click();
    await page.locator('input[name=login]').fill('bob'); // the provider's login page
    await page.locator('input[name=password]').fill('any');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click(); // its consent page (email, groups)
    await page.getByText(`Questions for ${idp.issuer}#bob`).waitFor();
    await page.locator('#live.on').waitFor();

    const request = mcpRequest(
      'tools/call',
      { name: 'refund', arguments: { order: 'P1', to: [{ group: 'finance' }], quorum: 2, waitMs: 20_000 } },
      { url: server.url, headers: { authorization: await callerToken(idp) } },
    );
    const call = fetch(request).then(async (r) => ((await r.json()) as any).result.structuredContent);

    const card = page.locator('article.question', { hasText: 'Refund order P1?' });
    await card.getByText(`for group finance · 2 must accept · asked by ${idp.issuer}#alice`).waitFor();
    await card.getByLabel('approve').check();
    await card.getByRole('button', { name: 'Submit' }).click();
    await card.getByText('Accepted: your decision is in; 1 of 2 accepts so far.').waitFor();
    await card.locator('ul.decisions li', { hasText: `${idp.issuer}#bob accepted` }).waitFor();
    expect(await card.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);

    const carol = await signIn(origin, 'carol');
    const q = await carol.waitFor('Refund order P1?');
    expect((await carol.answer(q.id, yes)).status).toBe(200);
    const got = await call;
    expect(got.decisions.map((d: { by: string }) => d.by)).toEqual([`${idp.issuer}#bob`, `${idp.issuer}#carol`]);
    await card.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await context.close();
  });
});
