// The inbox page in a real headless browser (Debian's chromium, driven by playwright-core): a question appears live,
// the person fills its form and submits, and the waiting tool call completes with that answer; markup stays text.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium';
import { App, LoopbackTokenAuth, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/inbox/server';
import { bearer } from '../helpers/bearer';
import { mcpRequest } from '../helpers/requests';

/** Set PARLEY_SCREENSHOTS=docs to refresh the screenshots in docs/ (docs/elicitation.md shows them). */
const SHOTS = process.env.PARLEY_SCREENSHOTS;

const MARKUP = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

@Tool({ name: 'plan_release', inputSchema: {} })
class PlanRelease extends ToolContext {
  async execute() {
    const answer = await this.elicit(
      'Plan the 4.2 release',
      z.object({
        contact: z.email().describe('Who to page if it goes wrong'),
        window: z.iso.date().describe('Release day'),
        canary: z.number().int().min(1).max(100).default(5).describe('Canary traffic, in percent'),
        regions: z.array(z.enum(['eu-west', 'us-east', 'ap-south'])).describe('Regions to ship to'),
        notify: z.boolean().default(true).describe('Post in #releases'),
        changelog: z.url().optional(),
      }),
      { ttl: 30_000, persist: { key: 'release-4.2' } },
    );
    return { answer };
  }
}

@Tool({ name: 'markup', inputSchema: {} })
class Markup extends ToolContext {
  async execute() {
    const schema = {
      type: 'object' as const,
      properties: { pick: { type: 'string', title: MARKUP, description: MARKUP, enum: [MARKUP, 'plain'] } },
      required: ['pick'],
    };
    const answer = await this.elicit(`Approve ${MARKUP}?`, schema, { ttl: 30_000, persist: { key: 'markup' } });
    return { answer };
  }
}

@App({ id: 'page', tools: [PlanRelease, Markup] })
class PageApp {}

const NAME = `page-${process.pid}`;
const SECRET = 'page-test-signing-secret';
let server: RunningServer;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  server = await serve(
    { ...config, info: { name: NAME, version: '1' }, apps: [...config.apps!, PageApp], logger: quiet, auth: { secret: SECRET } },
    { port: 0 },
  );
  origin = new URL(server.url).origin;
  await fetch(`${origin}/_frontmcp/inbox`); // the server is built on its first request, and its people auth with it
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function call(name: string, args: Record<string, unknown> = {}) {
  const request = mcpRequest(
    'tools/call',
    { name, arguments: args },
    { url: server.url, headers: { authorization: await bearer('dana', SECRET, 'https://idp.example') } },
  );
  return ((await (await fetch(request)).json()) as any).result;
}

async function openInbox(): Promise<{ page: Page; problems: string[] }> {
  const { code } = await LoopbackTokenAuth.createCode({ subject: 'principal:https://idp.example#dana', server: NAME });
  const page = await browser.newPage({ viewport: { width: 900, height: 1000 } });
  page.setDefaultTimeout(8000);
  const problems: string[] = [];
  // Any error but the browser's own request for /favicon.ico (the inbox has none) is a problem: CSP refusals included.
  page.on('console', (m) => m.type() === 'error' && !m.location().url.endsWith('/favicon.ico') && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${origin}/_frontmcp/inbox#code=${code}`);
  await page.getByText('Questions for https://idp.example#dana').waitFor();
  expect(page.url()).toBe(`${origin}/_frontmcp/inbox`); // the code left the address bar
  return { page, problems };
}

const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  if (!existsSync(SHOTS)) mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, name), fullPage: true });
};

describe('the inbox page', () => {
  it('shows a question live, renders its form from the schema, and the waiting call gets what the person submits', async () => {
    const { page, problems } = await openInbox();
    await page.getByText('No questions are waiting for you').waitFor();
    await page.locator('#live.on').waitFor();
    const waiting = call('approve_deploy', { version: '7.1.0', waitMs: 30_000 });
    const card = page.locator('article.question', { hasText: 'Deploy 7.1.0?' });
    await card.waitFor();
    await card.getByText('a call is waiting now').waitFor();
    expect(await card.locator('select').inputValue()).not.toBe(''); // the default, staging, is chosen
    await shot(page, 'inbox-question.png');
    await card.getByLabel('approve').check();
    await card.locator('select').selectOption({ label: 'production' });
    await card.getByLabel('note').fill('Ship after the standup');
    await card.getByRole('button', { name: 'Submit' }).click();
    expect((await waiting).structuredContent).toEqual({ approved: true, note: 'Ship after the standup' });
    await page.locator('#log li', { hasText: 'Deploy 7.1.0? — accept, delivered to the call that asked' }).waitFor();
    expect(await card.count()).toBe(0);
    await shot(page, 'inbox-answered.png');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('renders formats, numbers, multi-select and defaults, and refuses what the schema refuses', async () => {
    const { page, problems } = await openInbox();
    const waiting = call('plan_release');
    const card = page.locator('article.question', { hasText: 'Plan the 4.2 release' });
    await card.waitFor();
    expect(await card.locator('input[type=email]').count()).toBe(1);
    expect(await card.locator('input[type=date]').count()).toBe(1);
    expect(await card.locator('input[type=url]').count()).toBe(1);
    expect(await card.locator('input[type=number]').inputValue()).toBe('5');
    expect(await card.getByLabel('notify').isChecked()).toBe(true);
    await card.locator('input[type=email]').fill('not-an-email');
    await card.getByRole('button', { name: 'Submit' }).click();
    expect(await card.locator('input[type=email]').evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);
    await card.locator('input[type=email]').fill('oncall@example.com');
    await card.locator('input[type=date]').fill('2026-12-03');
    await card.locator('input[type=number]').fill('10');
    await card.getByLabel('eu-west').check();
    await card.getByLabel('ap-south').check();
    await shot(page, 'inbox-form.png');
    await card.getByRole('button', { name: 'Submit' }).click();
    expect((await waiting).structuredContent.answer).toEqual({
      status: 'accept',
      content: { contact: 'oncall@example.com', window: '2026-12-03', canary: 10, regions: ['eu-west', 'ap-south'], notify: true },
    });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows markup in a question as text, and runs none of it', async () => {
    const { page, problems } = await openInbox();
    const waiting = call('markup');
    const card = page.locator('article.question', { hasText: 'Approve' });
    await card.waitFor();
    expect(await card.locator('h2').textContent()).toBe(`Approve ${MARKUP}?`);
    expect(await card.locator('img, script').count()).toBe(0);
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await card.locator('option', { hasText: '<img' }).count()).toBe(1);
    await card.locator('select').selectOption({ label: MARKUP });
    await card.getByRole('button', { name: 'Submit' }).click();
    expect((await waiting).structuredContent.answer).toEqual({ status: 'accept', content: { pick: MARKUP } });
    await page.locator('#log li', { hasText: 'delivered to the call that asked' }).waitFor();
    expect(await page.locator('#log li').textContent()).toContain('<img src=x');
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says so when the link was already used', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/_frontmcp/inbox#code=spent-or-never-issued-code`);
    await page.getByText('This link was already used or has expired').waitFor();
    await page.getByText('Not signed in').waitFor();
    await page.close();
  });
});
