// The inbox page in a real headless chromium (playwright-core), and `parley inbox`, say where a moved question came from and why.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium';
import { LoopbackTokenAuth } from 'parley-mcp';
import { Readable } from 'node:stream';
import { runInbox } from '../../src/cli/inbox';
import { meta } from '../helpers/requests';
import { ISSUER, policyServer, type PolicyServer } from './unanswered-helpers';

let s: PolicyServer;
let browser: Browser;
beforeAll(async () => {
  s = await policyServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('the inbox page', () => {
  it('shows, on each question, the tool that asked and why it is in the inbox', async () => {
    await s.call('uma', 'deploy', { version: '9.1' }); // a 2026-07-28 round: filed beside it
    const formless = s.call('uma', 'deploy', { version: '9.2', waitMs: 20_000 }, { _meta: meta({}) }); // no forms: waits in the inbox
    await (await s.person('uma')).waitFor('Deploy 9.2?', true);
    const { code } = await LoopbackTokenAuth.createCode({ subject: `principal:${ISSUER}#uma`, server: s.name });
    const page = await browser.newPage();
    page.setDefaultTimeout(8000);
    await page.goto(`${s.url.origin}/_frontmcp/inbox#code=${code}`);
    const round = page.locator('article.question', { hasText: 'Deploy 9.1?' });
    await round.locator('.from').waitFor();
    expect(await round.locator('.from').textContent()).toBe('from deploy · asked in the client too: the first answer counts');
    const waiting = page.locator('article.question', { hasText: 'Deploy 9.2?' });
    expect(await waiting.locator('.from').textContent()).toBe('from deploy · the client cannot show forms');
    await waiting.getByLabel('approve').check();
    await waiting.getByRole('button', { name: 'Submit' }).click();
    expect((await formless).structuredContent).toEqual({ deployed: true });
    await page.close();
  });
});

describe('parley inbox', () => {
  it('prints where each question came from and why', async () => {
    await s.call('vic', 'deploy', { version: '9.3' });
    const { code } = await LoopbackTokenAuth.createCode({ subject: `principal:${ISSUER}#vic`, server: s.name });
    let stdout = '';
    const sink = { isTTY: false, write: (text: string) => ((stdout += text), true) } as unknown as NodeJS.WriteStream;
    const stdin = Readable.from(['']) as unknown as NodeJS.ReadStream;
    const exit = await runInbox(['--url', s.url.origin], {
      stdin,
      stdout: sink,
      stderr: sink,
      env: { FRONTMCP_INBOX_LINK: `${s.url.origin}/_frontmcp/inbox#code=${code}` },
    });
    expect(exit, stdout).toBe(0);
    expect(stdout).toContain('Deploy 9.3?');
    expect(stdout).toContain('  from deploy · asked in the client and in the inbox at once; the first answer counts');
  });
});
