// Standing approvals: "accept, and the same for the next period", used by the next matching call without asking,
// revoked by the person, and the call after that asking again; every step in the decision log; rules refused at startup.
import { describe, expect, it, vi } from 'vitest';
import { App, Tool, ToolContext, z } from 'parley-mcp';
import { buildRegistry } from '../../src/model/registry';
import { QuestionCodec } from '../../src/inbox/codec';
import { DecisionLog } from '../../src/inbox/decision-log';
import { Grants } from '../../src/inbox/grants';
import { QuestionStore } from '../../src/inbox/question-store';
import { createRedisStore } from '../../src/stores/redis';
import { storeFixture } from '../helpers/store-fixture';
import { read } from '../helpers/requests';
import { inboxServer } from './inbox-helpers';

@Tool({
  name: 'refund',
  inputSchema: { customer: z.string(), amount: z.number() },
  grant: { match: ['customer'], forMs: 3_600_000 },
})
class Refund extends ToolContext {
  async execute({ customer, amount }: { customer: string; amount: number }) {
    const answer = await this.elicit(`Refund ${amount} EUR to ${customer}?`, z.object({ approve: z.boolean() }), {
      ttl: 10_000,
      persist: { key: `refund-${customer}-${amount}` },
    });
    return { refunded: answer.status === 'accept' && answer.content?.approve === true };
  }
}
@App({ id: 'refunds', tools: [Refund] })
class Refunds {}

describe('a standing approval', () => {
  it('answers the next matching call without asking; revoked, the call after that asks again; all in the log', async () => {
    const s = inboxServer({ apps: [Refunds] });
    const cookie = await s.signIn();
    const first = s.call('refund', { customer: 'acme', amount: 10 });
    const q = await s.waitForQuestion(cookie, 'refund-acme-10');
    expect(q.from).toEqual({ tool: 'refund', reason: 'persist', grant: { forMs: 3_600_000, match: { customer: 'acme' } } });
    const answered = await read(
      await s.post(`/_frontmcp/questions/${q.id}/answer`, { action: 'accept', content: { approve: true }, grant: true }, { cookie }),
    );
    expect(answered.body).toMatchObject({ status: 'answered', granted: { id: expect.any(String), expiresAt: expect.any(Number) } });
    expect((await first).result.structuredContent).toEqual({ refunded: true });

    // The next call for acme is answered from the grant: nothing is asked.
    expect((await s.call('refund', { customer: 'acme', amount: 20 })).result.structuredContent).toEqual({ refunded: true });
    expect((await s.questions(cookie)).questions).toEqual([]);
    // Another customer is not covered.
    const globex = s.call('refund', { customer: 'globex', amount: 5 });
    const other = await s.waitForQuestion(cookie, 'refund-globex-5');
    await s.post(`/_frontmcp/questions/${other.id}/answer`, { action: 'decline' }, { cookie });
    expect((await globex).result.structuredContent).toEqual({ refunded: false });

    // Listed, revoked (once), and the next acme call asks again.
    const { grants } = (await read(await s.request('/_frontmcp/grants', { cookie }))).body;
    expect(grants).toEqual([
      {
        id: answered.body.granted.id,
        tool: 'refund',
        match: { customer: 'acme' },
        key: 'refund-acme-10',
        grantedAt: expect.any(Number),
        expiresAt: answered.body.granted.expiresAt,
      },
    ]);
    const revoke = () => s.post(`/_frontmcp/grants/${grants[0].id}/revoke`, {}, { cookie });
    expect((await read(await revoke())).body).toEqual({ status: 'revoked' });
    expect((await revoke()).status).toBe(404);
    expect((await read(await s.request('/_frontmcp/grants', { cookie }))).body.grants).toEqual([]);
    const again = s.call('refund', { customer: 'acme', amount: 30 });
    const asked = await s.waitForQuestion(cookie, 'refund-acme-30');
    await s.post(`/_frontmcp/questions/${asked.id}/answer`, { action: 'accept', content: { approve: true } }, { cookie });
    expect((await again).result.structuredContent).toEqual({ refunded: true });

    const log = (await read(await s.request('/_frontmcp/log', { cookie }))).body.entries as Record<string, unknown>[];
    const grantId = grants[0].id;
    expect(log.filter((e) => e.grant).map(({ event, key, by, channel, grant }) => ({ event, key, by, channel, grant }))).toEqual([
      { event: 'granted', key: 'refund-acme-10', by: 'https://idp.example#dana', channel: 'json', grant: grantId },
      { event: 'used', key: 'refund-acme-20', by: 'https://idp.example#dana', channel: 'call', grant: grantId },
      { event: 'revoked', key: 'refund-acme-10', by: 'https://idp.example#dana', channel: 'json', grant: grantId },
    ]);
    expect(log.find((e) => e.event === 'granted')?.until).toBe(new Date(answered.body.granted.expiresAt).toISOString());
  });

  it('is given only with an accept of a question that offers one', async () => {
    const s = inboxServer({ apps: [Refunds] });
    const cookie = await s.signIn();
    const call = s.call('refund', { customer: 'initech', amount: 1 });
    const q = await s.waitForQuestion(cookie, 'refund-initech-1');
    const declined = await read(await s.post(`/_frontmcp/questions/${q.id}/answer`, { action: 'decline', grant: true }, { cookie }));
    expect(declined).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await s.post(`/_frontmcp/questions/${q.id}/answer`, { action: 'decline', grant: 'yes' }, { cookie })).status).toBe(400);
    await s.post(`/_frontmcp/questions/${q.id}/answer`, { action: 'decline' }, { cookie });
    await call;
    const plain = inboxServer();
    const cookie2 = await plain.signIn();
    const deploy = plain.call('approve_deploy', { version: '6.0.0' });
    const d = await plain.waitForQuestion(cookie2, 'deploy-6.0.0');
    const refused = await plain.post(
      `/_frontmcp/questions/${d.id}/answer`,
      { action: 'accept', content: { approve: true }, grant: true },
      { cookie: cookie2 },
    );
    expect(refused.status).toBe(400);
    await plain.post(`/_frontmcp/questions/${d.id}/answer`, { action: 'decline' }, { cookie: cookie2 });
    await deploy;
  });
});

describe('a grant rule at startup', () => {
  const declare = (grant: unknown) => {
    @Tool({ name: 'pay', inputSchema: { payee: z.string() }, grant: grant as never })
    class Pay extends ToolContext {
      async execute() {
        return {};
      }
    }
    @App({ id: 'pay', tools: [Pay] })
    class PayApp {}
    return () => buildRegistry([PayApp], { elicitation: true });
  };

  it.each([
    ['no argument', { match: [], forMs: 60_000 }, /Tool "pay": grant\.match names no argument, so a grant would answer every call of it/],
    [
      'an argument the tool does not take',
      { match: ['payer'], forMs: 60_000 },
      /grant\.match names "payer", which is not one of its arguments \(payee\)/,
    ],
    ['__proto__', { match: ['__proto__'], forMs: 60_000 }, /grant\.match names "__proto__", which is not one of its arguments/],
    ['a year', { match: ['payee'], forMs: 365 * 86_400_000 }, /grant\.forMs must be whole milliseconds from 1000 to 7776000000/],
  ])('refuses a rule naming %s', (_, grant, message) => {
    expect(declare(grant)).toThrow(message);
  });

  it('takes a rule naming its arguments, and refuses one without persistent questions with a clear line', async () => {
    expect(declare({ match: ['payee'], forMs: 60_000 })).not.toThrow();
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
    try {
      const s = inboxServer({ apps: [Refunds], elicitation: { enabled: true } });
      expect((await s.request('/mcp', { method: 'POST' })).status).toBe(503);
    } finally {
      spy.mockRestore();
    }
    expect(errors.join('\n')).toContain(
      'Tool "refund" offers standing approvals (grant), which are kept with persistent questions: set elicitation.persistent',
    );
  });
});

describe('a standing approval across two instances on a real redis-server', () => {
  const { keep, redis } = storeFixture('parley-grants-');

  it('given on one instance, is used on the other; revoked there, the first finds none', async () => {
    const prefix = `test:grants:${process.pid}:`;
    const open = async () => {
      const records = new QuestionStore(keep(await createRedisStore(redis().url, {})), new QuestionCodec(prefix, 'grant-secret')).records;
      const log = new DecisionLog(records, { retentionMs: 86_400_000, clientAddress: false });
      return { grants: new Grants(records, log), log };
    };
    const [a, b] = [await open(), await open()];
    const subject = 'principal:https://idp.example#rosa';
    const schema = { type: 'object', properties: { approve: { type: 'boolean' } } };
    const question = {
      id: 'q-1',
      key: 'refund-acme-1',
      message: 'Refund?',
      requestedSchema: schema,
      createdAt: Date.now(),
      expiresAt: Date.now() + 60_000,
      from: { tool: 'refund', reason: 'persist' as const, grant: { forMs: 60_000, match: { customer: 'acme' } } },
    };
    const given = await a.grants.give(subject, question, { approve: true }, { channel: 'page' });
    const call = (customer: string) => ({ tool: 'refund', rule: { match: ['customer'], forMs: 60_000 }, args: { customer, amount: 2 } });
    const asked = { key: 'refund-acme-2', requestedSchema: schema };
    expect(await b.grants.use(subject, call('acme'), asked, {})).toEqual({ approve: true });
    expect(await b.grants.use(subject, call('globex'), asked, {})).toBeUndefined();
    expect(await b.grants.use('principal:https://idp.example#mallory', call('acme'), asked, {})).toBeUndefined();
    expect(
      await b.grants.use(subject, call('acme'), { ...asked, requestedSchema: { type: 'object', properties: {} } }, {}),
    ).toBeUndefined();
    expect((await b.grants.list(subject)).map((g) => g.id)).toEqual([given!.id]);
    expect(await b.grants.revoke(subject, given!.id, { channel: 'cli' })).toBe(true);
    expect(await a.grants.use(subject, call('acme'), asked, {})).toBeUndefined();
    expect((await a.log.export(subject)).map((e) => [e.event, e.key, e.channel])).toEqual([
      ['granted', 'refund-acme-1', 'page'],
      ['used', 'refund-acme-2', 'call'],
      ['revoked', 'refund-acme-1', 'cli'],
    ]);
  });
});
