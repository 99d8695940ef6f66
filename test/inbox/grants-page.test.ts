// A standing approval on the inbox page, in a real headless chromium against a real Node server: given with an accept,
// used by the next call (nothing asked), revoked with its button, and the call after that asking again.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, LoopbackTokenAuth, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/inbox/server';
import { bearer } from '../helpers/bearer';
import { launchChromium } from '../helpers/chromium';
import { mcpRequest } from '../helpers/requests';

@Tool({ name: 'refund', inputSchema: { customer: z.string(), amount: z.number() }, grant: { match: ['customer'], forMs: 7_200_000 } })
class Refund extends ToolContext {
  async execute({ customer, amount }: { customer: string; amount: number }) {
    const answer = await this.elicit(`Refund ${amount} EUR to ${customer}?`, z.object({ approve: z.boolean() }), {
      ttl: 20_000,
      persist: { key: `refund-${customer}-${amount}` },
    });
    return { refunded: answer.status === 'accept' && answer.content?.approve === true };
  }
}
@App({ id: 'refunds', tools: [Refund] })
class Refunds {}

const NAME = `grants-page-${process.pid}`;
const SECRET = 'grants-page-signing-secret';
let server: RunningServer;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  server = await serve(
    { ...config, apps: [Refunds], info: { name: NAME, version: '1' }, logger: quiet, auth: { secret: SECRET } },
    { port: 0 },
  );
  origin = new URL(server.url).origin;
  await fetch(`${origin}/_frontmcp/inbox`);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const refund = async (customer: string, amount: number) => {
  const headers = { authorization: await bearer('dana', SECRET, 'https://idp.example') };
  const request = mcpRequest('tools/call', { name: 'refund', arguments: { customer, amount } }, { url: server.url, headers });
  return ((await (await fetch(request)).json()) as any).result.structuredContent;
};

describe('a standing approval on the inbox page', () => {
  it('is given with the accept, lists, answers the next call, and once revoked the next call asks again', async () => {
    const { code } = await LoopbackTokenAuth.createCode({ subject: 'principal:https://idp.example#dana', server: NAME });
    const page = await browser.newPage();
    page.setDefaultTimeout(8000);
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && !m.location().url.endsWith('/favicon.ico') && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${origin}/_frontmcp/inbox#code=${code}`);
    await page.locator('#live.on').waitFor();

    const first = refund('acme', 10);
    const card = page.locator('article.question', { hasText: 'Refund 10 EUR to acme?' });
    await card.getByLabel('approve').check();
    await card.getByLabel('Accept the same for customer acme for 2 h').check();
    await card.getByRole('button', { name: 'Submit' }).click();
    expect(await first).toEqual({ refunded: true });
    const listed = page.locator('#grant-list li', { hasText: 'refund for customer acme, until' });
    await listed.waitFor();

    expect(await refund('acme', 20)).toEqual({ refunded: true }); // answered from the grant: nothing asked
    expect(await page.locator('article.question').count()).toBe(0);

    await listed.getByRole('button', { name: 'Revoke' }).click();
    await page.locator('#grants[hidden]').waitFor({ state: 'attached' });
    const again = refund('acme', 30);
    const asked = page.locator('article.question', { hasText: 'Refund 30 EUR to acme?' });
    await asked.getByRole('button', { name: 'Decline' }).click();
    expect(await again).toEqual({ refunded: false });
    expect(problems).toEqual([]);
    await page.close();
  });
});
