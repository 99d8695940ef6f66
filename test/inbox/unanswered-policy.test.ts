// The policy's options and its other paths: 'fail', a per-call override, a 2026-07-28 client without the capability,
// two rounds with the inbox in between, and what hooks and the access log record.
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { App, InvalidQuestionStoreError, Tool, ToolContext, z, type ElicitationAnswer, type ElicitationMove } from 'parley-mcp';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createQuestionService } from '../../src/app/questions';
import { parseConfig } from '../../src/model/config';
import { meta } from '../helpers/requests';
import { deploys, ISSUER, policyServer, type PolicyServer } from './unanswered-helpers';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const startup = (elicitation: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  Promise.resolve().then(() =>
    createQuestionService(
      parseConfig({ info: { name: 's', version: '1' }, elicitation: { enabled: true, ...elicitation }, ...extra }),
      undefined,
      quiet,
    ),
  );

describe('elicitation.unanswered and persistent.notify at startup', () => {
  it.each([
    [
      "then: 'inbox' without persistent questions",
      { unanswered: { then: 'inbox' } },
      /elicitation\.unanswered: then: 'inbox' needs persistent questions/,
    ],
    ['an unknown then', { unanswered: { then: 'later' } }, /elicitation\.unanswered\.then: /],
    ['a negative afterMs', { unanswered: { afterMs: -5, then: 'fail' } }, /elicitation\.unanswered\.afterMs: /],
    ['an unknown option', { unanswered: { then: 'fail', retry: true } }, /elicitation\.unanswered\.retry: not an option/],
    [
      'a notify URL over plain http to another host',
      { persistent: { storage: { type: 'memory' }, notify: { url: 'http://hooks.example/x', secret: 'x'.repeat(20) } } },
      /notify\.url: must be https/,
    ],
    [
      'a short notify secret',
      { persistent: { storage: { type: 'memory' }, notify: { url: 'https://hooks.example/x', secret: 'short' } } },
      /notify\.secret: must be at least 16 characters/,
    ],
    [
      'a notify that is neither',
      { persistent: { storage: { type: 'memory' }, notify: 'https://hooks.example/x' } },
      /notify: expected a function, or \{ url, secret/,
    ],
  ])('fails with a clear error for %s', async (_, elicitation, message) => {
    await expect(startup(elicitation)).rejects.toThrow(message);
  });

  it('refuses includeLink without people auth, and starts with then: fail alone', async () => {
    const failure = startup({
      persistent: { storage: { type: 'memory' }, notify: { url: 'https://hooks.example/x', secret: 'x'.repeat(20), includeLink: true } },
    });
    await expect(failure).rejects.toBeInstanceOf(InvalidQuestionStoreError);
    await expect(failure).rejects.toThrow(/notify\.includeLink needs people auth/);
    await expect(startup({ unanswered: { then: 'fail' } })).resolves.toBeUndefined();
  });
});

// Per-call options: a bad one is the tool's INVALID_INPUT; `false` leaves the question to the client (and the fallback).
@Tool({ name: 'ask_with', inputSchema: { unanswered: z.any().optional() } })
class AskWith extends ToolContext {
  async execute({ unanswered }: { unanswered?: unknown }) {
    const answer = await this.elicit('Proceed?', z.object({ ok: z.boolean() }), { ttl: 4_000, unanswered: unanswered as never });
    return { status: answer.status };
  }
}
@App({ id: 'per-call', tools: [AskWith] })
class PerCall {}

const moves: ElicitationMove[] = [];
const answers: ElicitationAnswer[] = [];
const lines: string[] = [];
let s: PolicyServer;
const servers: PolicyServer[] = [];
const clients: V1Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});
afterAll(async () => {
  await Promise.all(servers.map((x) => x.close()));
});

async function started(overrides: Parameters<typeof policyServer>[0] = {}, serveOptions: Parameters<typeof policyServer>[1] = {}) {
  const server = await policyServer(overrides, serveOptions);
  servers.push(server);
  return server;
}

async function v1(server: PolicyServer, sub: string, answer?: () => Promise<any>) {
  const client = new V1Client({ name: 'v1-policy', version: '1.0.0' }, { capabilities: answer ? { elicitation: {} } : {} });
  if (answer) client.setRequestHandler(ElicitRequestSchema, answer);
  await client.connect(new V1Transport(server.url, { requestInit: { headers: { authorization: await server.authorization(sub) } } }));
  clients.push(client);
  return client;
}
const never = () => new Promise<never>(() => {});

describe("then: 'fail' and per-call options, with the official v1 client", () => {
  it('fails a call whose client never answers with QUESTION_UNANSWERED, and one that cannot show forms with ELICITATION_NOT_SUPPORTED', async () => {
    const failing = await started({ elicitation: { enabled: true, unanswered: { afterMs: 200, then: 'fail' } } });
    const silent = await v1(failing, 'nia', never);
    const result = await silent.callTool({ name: 'deploy', arguments: { version: '8.0' } });
    expect(result).toMatchObject({ isError: true, _meta: { code: 'QUESTION_UNANSWERED' } });
    expect(JSON.stringify(result.content)).toContain('did not answer this question within 0.2 s');
    const formless = await v1(failing, 'nia');
    expect(await formless.callTool({ name: 'deploy', arguments: { version: '8.0' } })).toMatchObject({
      isError: true,
      _meta: { code: 'ELICITATION_NOT_SUPPORTED' },
    });
  });

  it('takes the fallback as before with unanswered: false, and refuses a malformed option', async () => {
    s = await started({ apps: [PerCall] });
    const formless = await v1(s, 'ola');
    const fallback = await formless.callTool({ name: 'ask_with', arguments: { unanswered: false } });
    expect((fallback._meta as Record<string, unknown>).elicitationPending).toBeDefined();
    const bad = await formless.callTool({ name: 'ask_with', arguments: { unanswered: { then: 'sometimes' } } });
    expect(bad).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
    expect(JSON.stringify(bad.content)).toMatch(
      /unanswered must be false or \{ afterMs\?: positive integer ms, then\?: 'inbox' \| 'fail' \}/,
    );
  });
});

describe('2026-07-28 paths', () => {
  it('a client without the elicitation capability: the request waits for the inbox, as a persistent question does', async () => {
    s = await started();
    const call = s.call('pia', 'deploy', { version: '8.1' }, { _meta: meta({}) });
    const person = await s.person('pia');
    const q = await person.waitFor('Deploy 8.1?', true);
    expect(q.from).toEqual({ tool: 'deploy', reason: 'client-cannot-show-forms' });
    await person.answer(q.id, { action: 'accept', content: { approve: true, by: 'inbox' } });
    expect((await call).structuredContent).toEqual({ deployed: true, by: 'inbox' });
  });

  it('two rounds: the inbox answer of the first question travels in the state, so it is neither filed nor claimed again', async () => {
    s = await started();
    const person = await s.person('quin');
    const round1 = await s.call('quin', 'release', { version: '8.2' });
    expect(Object.keys(round1.inputRequests)).toEqual(['elicitation-1']);
    const first = await person.waitFor('Release 8.2?');
    await person.answer(first.id, { action: 'accept', content: { approve: true, by: 'inbox' } });
    const round2 = await s.call(
      'quin',
      'release',
      { version: '8.2' },
      {
        requestState: round1.requestState,
        inputResponses: { 'elicitation-1': { action: 'accept', content: { approve: true, by: 'client' } } },
      },
    );
    expect(Object.keys(round2.inputRequests)).toEqual(['elicitation-2']);
    expect((await person.questions()).map((q) => q.message)).toEqual(['Release notes for 8.2?']);
    const second = await person.waitFor('Release notes for 8.2?');
    const done = await s.call(
      'quin',
      'release',
      { version: '8.2' },
      { requestState: round2.requestState, inputResponses: { 'elicitation-2': { action: 'accept', content: { notes: 'fast' } } } },
    );
    expect(done.structuredContent).toEqual({ released: true, by: 'inbox', notes: 'fast' });
    expect(await person.questions()).toEqual([]);
    // The decision log: the first answered in the inbox, the second by the client's own round (its copy claimed).
    const events = async (id: string) =>
      (await person.history(id)).filter((e) => e.event !== 'nudged').map((e) => [e.event, e.by, e.channel]);
    expect(await events(first.id)).toEqual([
      ['asked', `${ISSUER}#quin`, 'call'],
      ['viewed', `${ISSUER}#quin`, 'json'],
      ['answered', `${ISSUER}#quin`, 'json'],
    ]);
    expect(await events(second.id)).toEqual([
      ['asked', `${ISSUER}#quin`, 'call'],
      ['viewed', `${ISSUER}#quin`, 'json'],
      ['answered', `${ISSUER}#quin`, 'client'],
    ]);
    expect(deploys.get('release-8.2')).toBe(1);
    // The same last retry sent again: both questions are settled in its state, and nothing is claimed twice.
    const replay = await s.call(
      'quin',
      'release',
      { version: '8.2' },
      { requestState: round2.requestState, inputResponses: { 'elicitation-2': { action: 'accept', content: { notes: 'fast' } } } },
    );
    expect(replay).toMatchObject({ isError: true, _meta: { code: 'QUESTION_ALREADY_ANSWERED' } });
    // A client cannot erase what the state keeps for the inbox by sending that key itself.
    const erasing = { 'elicitation-2': { action: 'accept', content: { notes: 'again' } }, 'inbox-elicitation-2': { action: 'accept' } };
    const forged = await s.call('quin', 'release', { version: '8.2' }, { requestState: round2.requestState, inputResponses: erasing });
    expect(forged).toMatchObject({ isError: true, _meta: { code: 'QUESTION_ALREADY_ANSWERED' } });
    expect(deploys.get('release-8.2')).toBe(1);
  });
});

describe('what hooks and the access log record', () => {
  it('a moved hook with the reason and question id, the result hook saying who answered, and the access log line', async () => {
    const log = (line: string) => lines.push(line);
    s = await started(
      {
        logger: { debug: log, info: log, warn: log, error: log },
        elicitation: {
          enabled: true,
          persistent: { storage: { type: 'memory' } },
          unanswered: { afterMs: 200, then: 'inbox' },
          hooks: { moved: [(m) => void moves.push(m)], result: [(a) => void answers.push(a)] },
        },
      },
      { accessLog: true },
    );
    const silent = await v1(s, 'rae', never);
    const pending = await silent.callTool({ name: 'deploy', arguments: { version: '8.3', waitMs: 600 } });
    expect(pending).toMatchObject({ isError: true, _meta: { code: 'QUESTION_PENDING' } });
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ tool: 'deploy', key: 'elicitation-1', message: 'Deploy 8.3?', reason: 'client-never-answered' });
    const person = await s.person('rae');
    const q = await person.waitFor('Deploy 8.3?');
    expect(moves[0]!.questionId).toBe(q.id);
    expect(
      lines.some((l) =>
        /tools\/call deploy → tool error QUESTION_PENDING \[inbox: client-never-answered\]: The client did not answer/.test(l),
      ),
    ).toBe(true);
    await person.answer(q.id, { action: 'decline' });
    expect((await silent.callTool({ name: 'deploy', arguments: { version: '8.3' } })).structuredContent).toEqual({ deployed: false });
    expect(answers.map((a) => [a.key, a.result.status, a.answeredIn])).toEqual([['elicitation-1', 'decline', 'inbox']]);
    expect(moves).toHaveLength(1); // the next call found the question in the inbox: not moved again
  });
});
