// The inbox page served by a Worker, in chromium: isolate a runs the tool whose question waits, isolate b serves the
// page the person answers it on, the store in Durable Objects (an isolate of their own). The browser reaches each
// isolate by its host name (b.test), mapped to miniflare's port.
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers, type DurableWorkers } from '../helpers/durable-objects';
import { inboxClient } from './inbox-edge';

let workers: DurableWorkers;
let browser: Browser;
let port: string;
beforeAll(async () => {
  const { code } = await bundleWorker('test/edge/entries/inbox-worker.ts');
  workers = startDurableWorkers({ code });
  port = new URL(await workers.mf.ready).port;
  // As test/helpers/chromium.ts launches it, with b.test resolved to miniflare, which routes by host.
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--host-resolver-rules=MAP b.test 127.0.0.1:${port}`],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await workers?.dispose();
});

describe('the inbox page on a Worker', () => {
  it('shows the question a tool on another isolate asks, and the waiting call gets what the person submits', {
    timeout: 60_000,
  }, async () => {
    const s = inboxClient(workers.send);
    const made = await s.call('a', 'dana', 'inbox_code');
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && !m.location().url.endsWith('/favicon.ico') && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`http://b.test/_frontmcp/inbox#code=${made.result.structuredContent.code}`);
    await page.getByText('Questions for https://idp.example#dana').waitFor();
    await page.locator('#live.on').waitFor(); // the page follows the inbox live, over the Worker's event stream
    const waiting = s.call('a', 'dana', 'approve_refund', { order: 'P-1', waitMs: 30_000 });
    const card = page.locator('article.question', { hasText: 'Refund order P-1?' });
    await card.waitFor();
    await card.getByText('a call is waiting now').waitFor();
    await card.getByLabel('approve').check();
    await card.getByLabel('note').fill('Paid twice');
    await card.getByRole('button', { name: 'Submit' }).click();
    expect((await waiting).result.structuredContent).toEqual({ approved: true, note: 'Paid twice' });
    await page.locator('#log li', { hasText: 'Refund order P-1? — accept' }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});
