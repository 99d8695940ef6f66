// Escalation and expiry of a question addressed with `to`, at a real OpenID provider (oidc-provider on loopback: alice
// the caller, bob and carol in finance, dave on call) with a real webhook receiver on loopback: nobody in finance
// answers, so after its deadline the question is for dave too, who is nudged (a signed Standard Webhooks POST) and
// accepts; decisions made before count toward the quorum; at its expiry the tool gets `cancel` and the reason; the
// decision log's entries exact; a group named __proto__ as an escalation's addressee is a name like any other.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RunningServer } from 'parley-mcp/node';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestIdp } from '../helpers/oidc';
import { mcpRequest, read } from '../helpers/requests';
import { type Received, receiver } from '../helpers/webhook-receiver';
import { callerToken, no, type Person, signIn, startPeopleIdp, startServers, yes } from './addressees-helpers';

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 bytes. */
const WHSEC = `whsec_${Buffer.from('escalation-test-secret-32-bytes!').toString('base64')}`;
const SERVER_NAME = `escalation-${process.pid}`;
let idp: TestIdp;
let server: RunningServer;
let hook: Awaited<ReturnType<typeof receiver>>;
const people = new Map<string, Person>();
const person = (login: string) => people.get(login)!;
const by = (login: string) => `${idp.issuer}#${login}`;
const at = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/** Alice's agent calls refund with the official v1 client; resolves with what the tool returned. */
async function refund(args: Record<string, unknown>): Promise<{ result: Promise<any>; close(): Promise<void> }> {
  const client = new Client({ name: 'alice-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: await callerToken(idp) } } }),
  );
  const result = client
    .callTool({ name: 'refund', arguments: { waitMs: 30_000, ...args } }, CallToolResultSchema, { timeout: 40_000 })
    .then((r) => r.structuredContent);
  return { result, close: () => client.close() };
}

const until = async <T>(find: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> => {
  for (let i = 0; i < 600; i++) {
    const found = await find();
    if (found !== undefined && found !== false) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never: ${what}`);
};

/** The webhook's POSTs for a message, each verified with the official standardwebhooks package (it throws otherwise). */
const noticesFor = (message: string) =>
  hook.received
    .map((received: Received) => {
      const headers = Object.fromEntries(Object.entries(received.headers).map(([k, v]) => [k, String(v)]));
      return new Webhook(WHSEC).verify(received.body, headers) as Record<string, any>;
    })
    .filter((notice) => notice.message === message);

/** The caller's history of a question once it holds `count` entries of `event`. */
const historyWith = (id: string, event: string, count = 1) =>
  until(async () => {
    const entries = await person('alice').history(id);
    return entries.filter((e) => e.event === event).length >= count ? entries : undefined;
  }, `${count} ${event} in the history`);

beforeAll(async () => {
  idp = await startPeopleIdp();
  hook = await receiver([204]);
  server = (await startServers(idp, { name: SERVER_NAME, notify: { url: hook.url, secret: WHSEC } }))[0]!;
  const origin = new URL(server.url).origin;
  for (const login of ['alice', 'bob', 'carol', 'dave']) people.set(login, await signIn(origin, login));
}, 60_000);
afterAll(async () => {
  await server?.close({ graceMs: 0 });
  await hook?.close();
  await idp?.close();
});

describe('escalation', () => {
  it('nobody in finance answers: after the deadline dave sees it, is nudged (signed), accepts, and the tool goes on; the log exact', async () => {
    const escalate = [{ afterMs: 3_000, to: [{ subject: 'dave' }] }];
    const call = await refund({ order: 'E1', to: [{ group: 'finance' }], escalate });
    try {
      // The first nudge, for finance, and its log entry, before anyone looks (so the log's order is known).
      const [filed] = await until(() => {
        const found = noticesFor('Refund order E1?');
        return found.length === 1 ? found : undefined;
      }, 'the nudge');
      expect(filed).toMatchObject({ type: 'question.filed', addressed: { to: [{ group: 'finance' }], escalate } });
      expect(filed!.escalated).toBeUndefined();
      const id = filed!.questionId as string;
      await historyWith(id, 'nudged');
      expect((await person('bob').waitFor('Refund order E1?')).escalated).toBeUndefined();
      // Before its deadline: not dave's to see or answer.
      expect((await person('dave').questions()).map((q) => q.id)).not.toContain(id);
      expect(await person('dave').answer(id, yes)).toMatchObject({ status: 403, body: { error: 'not_addressed' } });

      // The deadline passes: dave is nudged, a POST signed as Standard Webhooks says, saying to whom it escalated.
      const escalated = await until(() => noticesFor('Refund order E1?').find((n) => n.type === 'question.escalated'), 'the escalation');
      expect(escalated).toMatchObject({
        questionId: id,
        principal: `principal:${by('alice')}`,
        escalated: { at: filed!.createdAt + 3_000, to: [{ subject: 'dave' }] },
      });
      await historyWith(id, 'nudged', 2);
      const forDave = await person('dave').waitFor('Refund order E1?');
      expect(forDave).toMatchObject({ id, askedBy: by('alice'), decided: false, escalated: { to: [{ subject: 'dave' }] } });
      expect(await person('dave').answer(id, yes)).toMatchObject({ status: 200, body: { status: 'answered', delivered: 'waiting-call' } });
      const got = await call.result;
      expect(got).toMatchObject({ status: 'accept', content: { approve: true } });
      expect(got.decisions).toEqual([{ by: by('dave'), at, action: 'accept', content: { approve: true } }]);
      expect(got.reason).toBeUndefined();

      const common = { question: id, key: 'refund-E1', tool: 'refund' };
      expect(await person('alice').history(id)).toEqual([
        { at, event: 'asked', ...common, by: by('alice'), channel: 'call' },
        { at, event: 'nudged', ...common, by: 'parley', channel: 'notify' },
        { at, event: 'viewed', ...common, by: by('bob'), channel: 'json' },
        { at, event: 'escalated', ...common, by: 'parley', channel: 'deadline', to: [{ subject: 'dave' }] },
        { at, event: 'nudged', ...common, by: 'parley', channel: 'notify' },
        { at, event: 'viewed', ...common, by: by('dave'), channel: 'json' },
        { at, event: 'answered', ...common, by: by('dave'), channel: 'json', action: 'accept' },
      ]);
      const escalatedAt = Date.parse((await person('alice').history(id)).find((e) => e.event === 'escalated')!.at);
      expect(escalatedAt).toBeGreaterThanOrEqual(filed!.createdAt + 3_000);
    } finally {
      await call.close();
    }
  });

  it('a decision made before the escalation counts toward the quorum, and those asked first may still decide', async () => {
    const call = await refund({
      order: 'E2',
      to: [{ group: 'finance' }],
      quorum: 3,
      escalate: [{ afterMs: 2_000, to: [{ email: 'dave@example.com' }] }],
    });
    try {
      const q = await person('bob').waitFor('Refund order E2?');
      expect(await person('bob').answer(q.id, yes)).toMatchObject({ status: 200, body: { status: 'decided', accepts: 1, quorum: 3 } });
      await person('dave').waitFor('Refund order E2?');
      expect(await person('dave').answer(q.id, yes)).toMatchObject({ status: 200, body: { status: 'decided', accepts: 2 } });
      expect(await person('carol').answer(q.id, yes)).toMatchObject({ status: 200, body: { status: 'answered' } });
      const got = await call.result;
      expect(got.status).toBe('accept');
      expect(got.decisions.map((d: { by: string }) => d.by)).toEqual([by('bob'), by('dave'), by('carol')]);
    } finally {
      await call.close();
    }
  });
});

describe('expiry', () => {
  it('ends the wait with cancel and the reason, with the decisions made so far; the log records it; later decisions are refused', async () => {
    const call = await refund({
      order: 'X1',
      to: [{ group: 'finance' }],
      quorum: 2,
      escalate: [{ afterMs: 1_000, to: [{ subject: 'dave' }] }],
      expire: { afterMs: 3_000, reason: 'Nobody approved the refund in time' },
    });
    try {
      const q = await person('carol').waitFor('Refund order X1?');
      expect(await person('carol').answer(q.id, yes)).toMatchObject({ status: 200, body: { status: 'decided', accepts: 1 } });
      const got = await call.result;
      expect(got).toEqual({
        status: 'cancel',
        content: null,
        reason: 'Nobody approved the refund in time',
        decisions: [{ by: by('carol'), at, action: 'accept', content: { approve: true } }],
      });
      expect([404, 409]).toContain((await person('dave').answer(q.id, no)).status);
      const entries = await historyWith(q.id, 'expired');
      const last = entries.at(-1)!;
      expect(last).toEqual({
        at,
        event: 'expired',
        question: q.id,
        key: 'refund-X1',
        tool: 'refund',
        by: 'parley',
        channel: 'deadline',
        action: 'cancel',
      });
      expect(Date.parse(last.at)).toBeGreaterThanOrEqual(q.createdAt + 3_000);
      expect(entries.map((e) => e.event)).toContain('escalated');
    } finally {
      await call.close();
    }
  });

  it('says a default reason, and a call that stopped waiting leaves the cancel to the next call of its key', async () => {
    const args = { order: 'X2', to: [{ subject: 'bob' }], expire: { afterMs: 1_500 } };
    const first = await refund({ ...args, waitMs: 300 });
    await first.result.catch(() => undefined); // stops waiting: the question stays, and nothing of the call holds it
    await first.close();
    await new Promise((r) => setTimeout(r, 2_000));
    const second = await refund(args);
    try {
      expect(await second.result).toMatchObject({ status: 'cancel', reason: 'Nobody decided within 1.5 s: the question expired' });
    } finally {
      await second.close();
    }
  });
});

describe('hostile and wrong escalations', () => {
  it('an escalation to a group named __proto__ is compared as a string: nobody here is in it', async () => {
    const escalate = [{ afterMs: 500, to: [{ group: '__proto__' }, { group: 'constructor' }] }];
    const call = await refund({ order: 'H1', to: [{ subject: 'carol' }], escalate });
    try {
      const q = await person('carol').waitFor('Refund order H1?');
      await until(() => noticesFor('Refund order H1?').find((n) => n.type === 'question.escalated'), 'the escalation');
      expect((await historyWith(q.id, 'escalated')).find((e) => e.event === 'escalated')!.to).toEqual(escalate[0]!.to);
      for (const login of ['alice', 'bob', 'dave']) {
        expect((await person(login).questions()).map((x) => x.id)).not.toContain(q.id);
        expect((await person(login).answer(q.id, yes)).status).not.toBe(200);
      }
      expect(await person('carol').answer(q.id, yes)).toMatchObject({ status: 200 });
      expect((await call.result).decisions.map((d: { by: string }) => d.by)).toEqual([by('carol')]);
    } finally {
      await call.close();
    }
  });

  it('refuses a bad escalation or expiry at the call, naming the option', async () => {
    const request = async (extra: Record<string, unknown>, on = server) => {
      const response = await fetch(
        mcpRequest(
          'tools/call',
          { name: 'refund', arguments: { order: 'bad', to: [{ group: 'finance' }], waitMs: 100, ...extra } },
          { url: on.url, headers: { authorization: await callerToken(idp) } },
        ),
      );
      return JSON.stringify((await read(response)).body);
    };
    const dave = [{ subject: 'dave' }];
    expect(await request({ escalate: [{ afterMs: -5, to: dave }] })).toContain(
      'escalate[0].afterMs must be a positive number of milliseconds',
    );
    expect(await request({ escalate: [{ afterMs: 'soon', to: dave }] })).toContain('escalate[0].afterMs must be a positive number');
    expect(await request({ escalate: [{ afterMs: 1e12, to: dave }] })).toContain(
      'escalate[0].afterMs (1000000000000) must come before the question expires from the store (persist.ttlMs: 86400000)',
    );
    expect(await request({ escalate: [{ afterMs: 1_000, to: [] }] })).toContain('escalate[0].to must list 1-20 addressees');
    expect(await request({ escalate: [{ afterMs: 1_000 }] })).toContain('escalate[0].to must list 1-20 addressees');
    expect(await request({ escalate: [{ afterMs: 1_000, to: [{ team: 'x' }] }] })).toContain(
      'escalate[0].to: an addressee names exactly one',
    );
    expect(
      await request({
        escalate: [
          { afterMs: 2_000, to: dave },
          { afterMs: 1_000, to: dave },
        ],
      }),
    ).toContain('escalate[1].afterMs (1000) must come after the deadline before it (2000)');
    expect(await request({ escalate: [{ afterMs: 2_000, to: dave }], expire: { afterMs: 1_000 } })).toContain(
      'expire.afterMs (1000) must come after',
    );
    expect(await request({ escalate: { afterMs: 1_000, to: dave } })).toContain('escalate must list 1-5 steps');

    // A server where nobody signs in at a provider: the escalation's people could never answer.
    const [plain] = await startServers(idp, { name: `escalation-plain-${process.pid}`, oidc: false });
    try {
      const text = await request({ escalate: [{ afterMs: 1_000, to: dave }] }, plain);
      expect(text).toContain('http: { auth: { oidc: { clientId } } }');
    } finally {
      await plain?.close({ graceMs: 0 });
    }
  });
});
