// A question's history on the inbox page, in a real headless chromium against a real Node server: the ask, the page's
// view and the page's answer, as the decision log keeps them.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackTokenAuth } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/inbox/server';
import { bearer } from '../helpers/bearer';
import { launchChromium } from '../helpers/chromium';
import { mcpRequest } from '../helpers/requests';

const NAME = `log-page-${process.pid}`;
const SECRET = 'log-page-signing-secret';
let server: RunningServer;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  server = await serve({ ...config, info: { name: NAME, version: '1' }, logger: quiet, auth: { secret: SECRET } }, { port: 0 });
  origin = new URL(server.url).origin;
  await fetch(`${origin}/_frontmcp/inbox`); // builds the server, and its people auth
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const call = async (args: Record<string, unknown>) => {
  const headers = { authorization: await bearer('dana', SECRET, 'https://idp.example') };
  const request = mcpRequest('tools/call', { name: 'approve_deploy', arguments: args }, { url: server.url, headers });
  return ((await (await fetch(request)).json()) as any).result;
};

describe("a question's history on the inbox page", () => {
  it('shows who asked, saw and answered it, when and through which channel', async () => {
    // The call stops waiting, so the answered question stays on the page (waiting for the next call of its key).
    expect((await call({ version: '8.0.0', waitMs: 50 }))._meta).toMatchObject({ code: 'QUESTION_PENDING' });
    const { code } = await LoopbackTokenAuth.createCode({ subject: 'principal:https://idp.example#dana', server: NAME });
    const page = await browser.newPage();
    page.setDefaultTimeout(8000);
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && !m.location().url.endsWith('/favicon.ico') && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${origin}/_frontmcp/inbox#code=${code}`);
    const card = page.locator('article.question', { hasText: 'Deploy 8.0.0?' });
    await card.waitFor();
    await card.getByLabel('approve').check();
    await card.getByRole('button', { name: 'Submit' }).click();
    await card.getByText('Accepted: it waits for the next call that asks deploy-8.0.0.').waitFor();
    await card.locator('summary', { hasText: 'History' }).click();
    const lines = card.locator('.history li');
    await lines.nth(2).waitFor();
    const texts = (await lines.allTextContents()).map((line) => line.replace(/^.*? · /, ''));
    expect(texts).toEqual([
      'asked by https://idp.example#dana · call',
      'viewed by https://idp.example#dana · page',
      'answered (accept) by https://idp.example#dana · page',
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
