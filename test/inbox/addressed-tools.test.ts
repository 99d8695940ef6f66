// `to` written once: on a tool, for every persistent question it asks, and in elicitation.unanswered, where a question
// the client does not answer moves to those people instead of the caller. A real OpenID provider (oidc-provider on
// loopback: alice the caller, bob and carol in finance, dave on call). And the startup's refusals, naming the option.
import { App, InvalidInputError, Tool, ToolContext, z, type FrontMcpConfigInput } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuestionService } from '../../src/app/questions';
import { policyFor } from '../../src/elicitation/unanswered-policy';
import { parseConfig } from '../../src/model/config';
import { buildRegistry } from '../../src/model/registry';
import type { TestIdp } from '../helpers/oidc';
import { mcpRequest, meta } from '../helpers/requests';
import { callerToken, freePort, type Person, quiet, registerInbox, SECRET, signIn, startPeopleIdp, yes } from './addressees-helpers';

/** Asks finance, as its tool says: two of them must accept. The question itself names nobody. */
@Tool({ name: 'refund_finance', inputSchema: { order: z.string() }, to: [{ group: 'finance' }], quorum: 2 })
class RefundFinance extends ToolContext {
  async execute({ order }: { order: string }) {
    const answer = await this.elicit(`Refund order ${order}?`, z.object({ approve: z.boolean() }), {
      ttl: 20_000,
      persist: { key: `refund-${order}` },
    });
    return { status: answer.status, decisions: (answer.decisions ?? []).map((d) => `${d.by} ${d.action}`) };
  }
}

/** An ordinary question: the client's to answer, then (the policy) dave's. */
@Tool({ name: 'confirm', inputSchema: { order: z.string() } })
class Confirm extends ToolContext {
  async execute({ order }: { order: string }) {
    const answer = await this.elicit(`Confirm order ${order}?`, z.object({ approve: z.boolean() }), { ttl: 20_000 });
    return { status: answer.status, approve: answer.content?.approve ?? null, decisions: (answer.decisions ?? []).length };
  }
}

@App({ id: 'approvals', tools: [RefundFinance, Confirm] })
class Approvals {}

let idp: TestIdp;
let server: RunningServer;
const people = new Map<string, Person>();

beforeAll(async () => {
  idp = await startPeopleIdp();
  const port = await freePort();
  const client = await registerInbox(idp, [`http://127.0.0.1:${port}/_frontmcp/sign-in/callback`]);
  const config: FrontMcpConfigInput = {
    info: { name: `addressed-tools-${process.pid}`, version: '1.0.0' },
    apps: [Approvals],
    logger: quiet,
    auth: { secret: SECRET, issuer: idp.issuer },
    http: { auth: { oidc: { ...client, scope: 'openid email groups' } } },
    elicitation: {
      enabled: true,
      persistent: { storage: { type: 'memory' } },
      unanswered: { then: 'inbox', afterMs: 200, to: [{ email: 'dave@example.com' }] },
    },
  };
  server = await serve(config, { port, quiet: true });
  for (const login of ['alice', 'bob', 'carol', 'dave']) people.set(login, await signIn(new URL(server.url).origin, login));
});
afterAll(async () => {
  await server?.close({ graceMs: 0 });
  await idp?.close();
});

const person = (login: string) => people.get(login)!;

async function call(tool: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const request = mcpRequest(
    'tools/call',
    { name: tool, arguments: args, ...extra },
    { url: server.url, headers: { authorization: await callerToken(idp) } },
  );
  return ((await (await fetch(request)).json()) as { result: Record<string, any> }).result;
}

describe('`to` on a tool', () => {
  it("addresses the tool's persistent question to finance, two of whom must accept; alice, the caller, cannot", async () => {
    const waiting = call('refund_finance', { order: 'F1' });
    const q = await person('bob').waitFor('Refund order F1?');
    expect(q.addressed).toEqual({ to: [{ group: 'finance' }], quorum: 2, declines: 1 });
    expect((await person('alice').questions()).map((x) => x.message)).not.toContain('Refund order F1?');
    expect((await person('alice').answer(q.id, yes)).status).toBe(403);
    expect((await person('bob').answer(q.id, yes)).body).toMatchObject({ status: 'decided', accepts: 1, quorum: 2 });
    expect((await person('carol').answer(q.id, yes)).status).toBe(200);
    expect((await waiting).structuredContent).toEqual({
      status: 'accept',
      decisions: [`${idp.issuer}#bob accept`, `${idp.issuer}#carol accept`],
    });
  });
});

describe('`to` in elicitation.unanswered', () => {
  it('moves a question a client cannot show to dave, not to the caller', async () => {
    const waiting = call('confirm', { order: 'U1' }, { _meta: meta({}) }); // declares no forms: waits for the inbox
    const q = await person('dave').waitFor('Confirm order U1?');
    expect(q.addressed).toMatchObject({ to: [{ email: 'dave@example.com' }], quorum: 1 });
    expect(q.from).toMatchObject({ tool: 'confirm', reason: 'client-cannot-show-forms' });
    expect((await person('alice').questions()).map((x) => x.message)).not.toContain('Confirm order U1?');
    expect((await person('bob').questions()).map((x) => x.message)).not.toContain('Confirm order U1?');
    expect((await person('dave').answer(q.id, yes)).status).toBe(200);
    expect((await waiting).structuredContent).toEqual({ status: 'accept', approve: true, decisions: 1 });
  });

  it("files a 2026-07-28 round's question for dave beside the round; his answer is the retry's", async () => {
    const round = await call('confirm', { order: 'U2' });
    expect(round.resultType).toBe('input_required');
    const q = await person('dave').waitFor('Confirm order U2?');
    expect(q.from).toMatchObject({ tool: 'confirm', reason: 'filed-with-round' });
    expect((await person('alice').questions()).map((x) => x.message)).not.toContain('Confirm order U2?');
    expect((await person('dave').answer(q.id, { action: 'accept', content: { approve: false } })).status).toBe(200);
    const retry = await call('confirm', { order: 'U2' }, { requestState: round.requestState });
    expect(retry.structuredContent).toEqual({ status: 'accept', approve: false, decisions: 1 });
  });
});

describe("a question's own unanswered option", () => {
  it("takes the server's `to`, each of its own fields over the server's", () => {
    const server = { afterMs: 100, then: 'inbox', to: [{ group: 'oncall' }], quorum: 2 } as const;
    expect(policyFor({ ...server, to: [...server.to] }, { afterMs: 50 })).toEqual({ ...server, afterMs: 50 });
    const own = policyFor({ ...server, to: [...server.to] }, { to: [{ email: 'dave@example.com' }], quorum: 1 });
    expect(own).toEqual({ afterMs: 100, then: 'inbox', to: [{ email: 'dave@example.com' }], quorum: 1 });
  });
});

describe('`to` at startup', () => {
  const declare = (options: Record<string, unknown>) => {
    @Tool({ name: 'pay', inputSchema: { payee: z.string() }, ...options })
    class Pay extends ToolContext {
      async execute() {
        return {};
      }
    }
    @App({ id: 'pay', tools: [Pay] })
    class PayApp {}
    return buildRegistry([PayApp], { elicitation: true });
  };
  const start = (
    tool: Record<string, unknown>,
    config: Record<string, unknown> = {},
    persistent: unknown = { storage: { type: 'memory' } },
  ) =>
    createQuestionService(
      parseConfig({
        info: { name: 'startup', version: '1' },
        auth: { issuer: 'https://idp.example' },
        http: { auth: { oidc: { clientId: 'inbox' } } },
        ...config,
        elicitation: { enabled: true, persistent, ...((config.elicitation as object) ?? {}) },
      }),
      undefined,
      quiet,
      undefined,
      declare(tool),
    );

  it('refuses a tool addressing anyone on a server where nobody signs in at a provider, naming the tool and http.auth.oidc', async () => {
    const failure = start({ to: [{ group: 'finance' }] }, { http: { auth: { people: 'loopback-token' } } });
    await expect(failure).rejects.toBeInstanceOf(InvalidInputError);
    await expect(failure).rejects.toThrow('Tool "pay": `to` is answered by people signed in at a provider: set http.auth.oidc');
  });

  it('refuses it at a real start too', async () => {
    @App({ id: 'finance', tools: [RefundFinance] })
    class Finance {}
    const starting = serve(
      {
        info: { name: 'no-oidc', version: '1' },
        apps: [Finance],
        logger: quiet,
        http: { auth: { people: 'loopback-token' } },
        elicitation: { enabled: true, persistent: { storage: { type: 'memory' } } },
      },
      { port: 0, quiet: true },
    );
    await expect(starting).rejects.toThrow(
      /Tool "refund_finance": `to` is answered by people signed in at a provider: set http\.auth\.oidc/,
    );
  });

  it('refuses a tool with `to` on a server without persistent questions', async () => {
    await expect(start({ to: [{ group: 'finance' }] }, {}, false)).rejects.toThrow(
      'Tool "pay": `to` needs elicitation.persistent and http.auth.oidc',
    );
  });

  it.each([
    ['an empty to', { to: [] }, 'Tool "pay": to must list 1-20 addressees'],
    ['a misspelt kind', { to: [{ grup: 'finance' }] }, 'Tool "pay": to: an addressee names exactly one of subject, email or group'],
    ['a quorum of none', { to: [{ group: 'finance' }], quorum: 0 }, 'Tool "pay": quorum must be a whole number from 1 to 32'],
    ['quorum without to', { quorum: 2 }, 'Tool "pay": quorum is about the decisions of addressees: name them with `to`'],
    ['more accepts than people', { to: [{ email: 'a@example.com' }], quorum: 2 }, 'Tool "pay": quorum 2 needs more accepts'],
  ])('refuses %s with an InvalidInputError naming the option', async (_, tool, message) => {
    const failure = start(tool);
    await expect(failure).rejects.toBeInstanceOf(InvalidInputError);
    await expect(failure).rejects.toThrow(message);
  });

  it('takes a group named __proto__ as a group', async () => {
    await expect(start({ to: [{ group: '__proto__' }] })).resolves.toBeDefined();
  });

  it('refuses a malformed `to` in elicitation.unanswered, and `to` with then: fail', async () => {
    const policy = (unanswered: unknown) => start({}, { elicitation: { unanswered } });
    await expect(policy({ then: 'inbox', to: [{ email: 'not an address' }] })).rejects.toThrow(
      'elicitation.unanswered: to: email "not an address" is not an email address',
    );
    await expect(policy({ then: 'fail', to: [{ group: 'oncall' }] })).rejects.toThrow("elicitation.unanswered: to needs then: 'inbox'");
  });

  it('refuses an empty or malformed grant rule with an InvalidInputError naming the option', () => {
    expect(() => declare({ grant: {} })).toThrow(InvalidInputError);
    expect(() => declare({ grant: {} })).toThrow(/Tool "pay": grant\.match names no argument/);
    expect(() => declare({ grant: 'always' })).toThrow(/Tool "pay": grant must be \{ match: \[argument names\], forMs \}/);
  });
});
