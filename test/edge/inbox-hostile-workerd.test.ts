// Hostile input on the edge inbox's routes, in workerd with Durable Objects (beyond what inbox-edge.ts's path tries):
// people and question keys named like Object.prototype's members, such names in answers and sign-in fields, and a
// question too large for one Durable Object value: refused with an error that says so, nothing else lost, the store
// not taken for down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers, type DurableWorkers } from '../helpers/durable-objects';
import { read } from '../helpers/requests';
import { inboxClient } from './inbox-edge';

let workers: DurableWorkers;
beforeAll(async () => {
  const { code } = await bundleWorker('test/edge/entries/inbox-worker.ts');
  workers = startDurableWorkers({ code });
});
afterAll(() => workers?.dispose());

const PROTO = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

describe('hostile input on the inbox of a Worker', () => {
  it('refuses a question too large for the store, saying so; nothing else is lost and the store serves on', {
    timeout: 60_000,
  }, async () => {
    const s = inboxClient(workers.send);
    const dana = await s.signIn('b', 'dana');
    await s.call('a', 'dana', 'approve_refund', { order: 'KEPT', waitMs: 200 });
    const big = await s.call('a', 'dana', 'long_question', { chars: 2_100_000 });
    expect(big.result).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
    expect(big.result.content[0].text).toMatch(
      /^Durable Objects store: a value of \d+ bytes can't be kept; a Durable Object keeps at most 2000000 bytes under one key$/,
    );
    // The operator's log says it too; the caller's next call and the person's inbox go on as before.
    expect(workers.output()).toContain("can't be kept; a Durable Object keeps at most 2000000 bytes under one key");
    const { body } = await s.questions('b', dana);
    expect(body.questions.map((q: { key: string }) => q.key)).toEqual(['refund-KEPT']);
    const kept = body.questions[0] as { id: string };
    expect((await s.post('b', `/_frontmcp/questions/${kept.id}/answer`, { action: 'decline' }, dana)).status).toBe(200);
    expect((await s.call('a', 'dana', 'approve_refund', { order: 'KEPT', waitMs: 200 })).result.structuredContent).toEqual({
      approved: false,
    });
  });

  it("keeps people and keys named like Object.prototype's members apart, each seeing only their own", { timeout: 60_000 }, async () => {
    const s = inboxClient(workers.send);
    const cookies = new Map<string, string>();
    for (const [i, person] of PROTO.entries()) {
      cookies.set(person, await s.signIn(i % 2 ? 'a' : 'b', person));
      await s.call(i % 2 ? 'b' : 'a', person, 'approve_refund', { order: person, waitMs: 100 });
    }
    for (const [i, person] of PROTO.entries()) {
      const { status, body } = await s.questions(i % 2 ? 'a' : 'b', cookies.get(person)!);
      expect(status).toBe(200);
      expect(body.signedInAs).toBe(`https://idp.example#${person}`);
      expect(body.questions.map((q: { key: string }) => q.key)).toEqual([`refund-${person}`]);
    }
    // Another person's question, by its id, is no question of theirs.
    const theirs = (await s.questions('a', cookies.get('constructor')!)).body.questions[0] as { id: string };
    expect((await s.post('b', `/_frontmcp/questions/${theirs.id}/answer`, { action: 'decline' }, cookies.get('__proto__'))).status).toBe(
      404,
    );
  });

  it('refuses answers and sign-ins whose fields are named like those members, and the cron route ignores a query', async () => {
    const s = inboxClient(workers.send);
    const erin = await s.signIn('a', 'erin');
    await s.call('b', 'erin', 'approve_refund', { order: 'H-1', waitMs: 100 });
    const q = await s.waitForQuestion('a', erin, 'refund-H-1');
    const raw = (body: string) =>
      workers.send('a', `/_frontmcp/questions/${q.id}/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: erin },
        body,
      });
    for (const body of [
      '{"action":"accept","content":{"__proto__":{"approve":true}}}',
      '{"__proto__":{"action":"accept"},"content":{"approve":true}}',
      '{"action":"__proto__"}',
      '{"action":"constructor"}',
      '{"action":"accept","content":{"constructor":{"prototype":{"approve":true}}}}',
    ]) {
      const answered = await raw(body);
      expect(answered.status, body).toBeGreaterThanOrEqual(400);
      expect(answered.status, body).toBeLessThan(500);
    }
    // Still open: none of those answered it.
    expect((await s.questions('a', erin)).body.questions).toMatchObject([{ key: 'refund-H-1', state: 'open' }]);
    for (const code of [{}, ['x'], 'constructor', 'toString']) expect((await s.post('b', '/_frontmcp/sign-in', { code })).status).toBe(401);
    expect((await s.post('b', '/_frontmcp/sign-in', JSON.parse('{"__proto__":{"code":"x"}}'))).status).toBeLessThan(500);
    expect(await read(await workers.send('b', '/_frontmcp/deadlines?__proto__=1&constructor=x'))).toEqual({
      status: 200,
      body: { sent: 0 },
    });
    expect(workers.output()).not.toMatch(/ERROR|TypeError/);
  });
});
