// Persistent questions in Durable Objects outlive the workerd process: with the objects' storage in a folder (as
// `wrangler dev` keeps it in .wrangler/state, and Cloudflare always does), a question filed and answered before a
// restart reaches the next call after it, and one filed before is answered after it, its call getting the answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers } from '../helpers/durable-objects';
import { read } from '../helpers/requests';
import { inboxClient } from './inbox-edge';

let code: string;
const folder = mkdtempSync(join(tmpdir(), 'parley-inbox-restart-'));
beforeAll(async () => {
  ({ code } = await bundleWorker('test/edge/entries/inbox-worker.ts'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the inbox on Workers across a restart of workerd', () => {
  it('keeps questions and answers in the persistence folder for the next workerd process', { timeout: 60_000 }, async () => {
    const first = startDurableWorkers({ code, persist: folder });
    let dana: string;
    try {
      const s = inboxClient(first.send);
      dana = await s.signIn('b', 'dana');
      for (const order of ['P-1', 'P-2'])
        expect((await s.call('a', 'dana', 'approve_refund', { order, waitMs: 200 })).result._meta.code).toBe('QUESTION_PENDING');
      const q1 = await s.waitForQuestion('b', dana, 'refund-P-1');
      const answered = await s.post(
        'b',
        `/_frontmcp/questions/${q1.id}/answer`,
        { action: 'accept', content: { approve: true, note: 'before' } },
        dana,
      );
      expect(answered.status).toBe(200);
    } finally {
      await first.dispose();
    }

    const second = startDurableWorkers({ code, persist: folder });
    try {
      const s = inboxClient(second.send);
      // Answered before the restart: the next call after it gets that answer.
      const next = await s.call('a', 'dana', 'approve_refund', { order: 'P-1', waitMs: 200 });
      expect(next.result.structuredContent).toEqual({ approved: true, note: 'before' });
      // Filed before the restart: still in the inbox, which the session opened before the restart still opens.
      const { body } = await s.questions('a', dana);
      expect(body.questions.map((q: { key: string }) => q.key)).toEqual(['refund-P-2']);
      const q2 = body.questions[0] as { id: string };
      expect((await read(await s.post('a', `/_frontmcp/questions/${q2.id}/answer`, { action: 'decline' }, dana))).body).toMatchObject({
        status: 'answered',
      });
      expect((await s.call('b', 'dana', 'approve_refund', { order: 'P-2', waitMs: 200 })).result.structuredContent).toEqual({
        approved: false,
      });
      expect(second.output()).not.toContain('ERROR');
    } finally {
      await second.dispose();
    }
  });
});
