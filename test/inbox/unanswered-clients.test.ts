// The unanswered-question policy with real clients: the official v1 client (one that never answers, one without the
// capability) and the official v2 client at 2026-07-28 (one that never retries, one that retries after the inbox).
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deploys, policyServer, type PolicyServer } from './unanswered-helpers';

let s: PolicyServer;
beforeAll(async () => {
  s = await policyServer();
});
afterAll(() => s.close());

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
});

type Handler = (params: {
  message: string;
}) => Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | boolean> }>;

async function v1(sub: string, handler?: (params: { message: string }, signal: AbortSignal) => Promise<any>) {
  const client = new V1Client({ name: 'v1-unanswered', version: '1.0.0' }, { capabilities: handler ? { elicitation: {} } : {} });
  if (handler)
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => handler(request.params as { message: string }, extra.signal));
  await client.connect(new V1Transport(s.url, { requestInit: { headers: { authorization: await s.authorization(sub) } } }));
  open.push(client);
  return client;
}

async function v2(sub: string, handler: Handler) {
  const client = new V2Client(
    { name: 'v2-unanswered', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', (request) => handler(request.params as { message: string }));
  await client.connect(new V2Transport(s.url, { requestInit: { headers: { authorization: await s.authorization(sub) } } }));
  open.push(client);
  return client;
}

const never = () => new Promise<never>(() => {});
const meta = (result: Record<string, any>) => result._meta as Record<string, any>;

describe('the official v1 client (2025-11-25)', () => {
  it('whose elicitation handler never returns: the question moves to the inbox and the waiting call gets its answer', async () => {
    let cancelled = false;
    const client = await v1('ana', (_params, signal) => {
      signal.addEventListener('abort', () => (cancelled = true));
      return never();
    });
    const call = client.callTool({ name: 'deploy', arguments: { version: '1.0' } });
    const person = await s.person('ana');
    const q = await person.waitFor('Deploy 1.0?', true);
    expect(q.from).toEqual({ tool: 'deploy', reason: 'client-never-answered', afterMs: 300 });
    expect(cancelled).toBe(true); // the client was told its form is moot
    expect(await person.answer(q.id, { action: 'accept', content: { approve: true, by: 'inbox' } })).toMatchObject({
      status: 200,
      body: { delivered: 'waiting-call' },
    });
    expect((await call).structuredContent).toEqual({ deployed: true, by: 'inbox' });
    expect(deploys.get('1.0')).toBe(1);
  });

  it('ends a call nobody answered with words the model can act on; the next call gets the inbox answer without asking the client', async () => {
    let asked = 0;
    const client = await v1('ben', () => (asked++, never()));
    const first = await client.callTool({ name: 'deploy', arguments: { version: '1.1', waitMs: 900 } });
    expect(first.isError).toBe(true);
    expect(meta(first)).toMatchObject({
      code: 'QUESTION_PENDING',
      'parley/inbox': { reason: 'client-never-answered', next: 'call-again-later' },
    });
    expect(JSON.stringify(first.content)).toMatch(
      /did not answer this question within 0\.3 s, so it was put in the person's inbox.*call this tool again later/,
    );
    const person = await s.person('ben');
    const q = await person.waitFor('Deploy 1.1?', false);
    expect(meta(first)['parley/inbox'].questionId).toBe(q.id);
    expect((await person.answer(q.id, { action: 'accept', content: { approve: true, by: 'inbox' } })).body.delivered).toBe('next-call');
    expect((await client.callTool({ name: 'deploy', arguments: { version: '1.1' } })).structuredContent).toEqual({
      deployed: true,
      by: 'inbox',
    });
    expect(asked).toBe(1);
    expect(deploys.get('1.1')).toBe(1);
  });

  it('that answers in time: its answer counts and nothing lands in the inbox', async () => {
    const client = await v1('ada', async () => ({ action: 'accept', content: { approve: true, by: 'client' } }));
    expect((await client.callTool({ name: 'deploy', arguments: { version: '1.2' } })).structuredContent).toEqual({
      deployed: true,
      by: 'client',
    });
    expect(await (await s.person('ada')).questions()).toEqual([]);
    expect(deploys.get('1.2')).toBe(1);
  });

  it('without the elicitation capability: the question goes to the inbox instead of the sendElicitationResult fallback', async () => {
    const client = await v1('cai');
    const call = client.callTool({ name: 'deploy', arguments: { version: '2.0' } });
    const person = await s.person('cai');
    const q = await person.waitFor('Deploy 2.0?', true);
    expect(q.from).toEqual({ tool: 'deploy', reason: 'client-cannot-show-forms' });
    await person.answer(q.id, { action: 'accept', content: { approve: true, by: 'inbox' } });
    const result = await call;
    expect(result.structuredContent).toEqual({ deployed: true, by: 'inbox' });
    expect(result._meta?.elicitationPending).toBeUndefined();
    expect(deploys.get('2.0')).toBe(1);
  });
});

describe('the official v2 client at 2026-07-28', () => {
  it('that never retries: the first round filed the question in the inbox, and the next call gets its answer', async () => {
    const silent = await v2('dee', never);
    const abort = new AbortController();
    void silent.callTool({ name: 'deploy', arguments: { version: '3.0' } }, { signal: abort.signal }).catch((error: unknown) => error);
    const person = await s.person('dee');
    const q = await person.waitFor('Deploy 3.0?');
    expect(q).toMatchObject({ from: { tool: 'deploy', reason: 'filed-with-round' }, waiting: false, state: 'open' });
    expect((await person.answer(q.id, { action: 'accept', content: { approve: true, by: 'inbox' } })).body.delivered).toBe('next-call');
    // The v2 client waits on its handler whatever the signal says: the first call is left behind (closed after the test).
    abort.abort();
    const next = await v2('dee', () => Promise.reject(new Error('the answer was in the inbox: nobody should be asked')));
    expect((await next.callTool({ name: 'deploy', arguments: { version: '3.0' } })).structuredContent).toEqual({
      deployed: true,
      by: 'inbox',
    });
    expect(deploys.get('3.0')).toBe(1);
    expect(await person.questions()).toEqual([]);
  });

  it('that retries after the inbox answered and another call took that answer: the retry is refused, the deploy happens once', async () => {
    const person = await s.person('eve');
    const other = await v2('eve', () => Promise.reject(new Error('the answer was in the inbox: nobody should be asked')));
    const late = await v2('eve', async () => {
      const q = await person.waitFor('Deploy 4.0?');
      await person.answer(q.id, { action: 'accept', content: { approve: true, by: 'inbox' } });
      expect((await other.callTool({ name: 'deploy', arguments: { version: '4.0' } })).structuredContent).toEqual({
        deployed: true,
        by: 'inbox',
      });
      return { action: 'accept', content: { approve: true, by: 'client' } };
    });
    const retried = await late.callTool({ name: 'deploy', arguments: { version: '4.0' } });
    expect(retried.isError).toBe(true);
    expect(meta(retried).code).toBe('QUESTION_ALREADY_ANSWERED');
    expect(JSON.stringify(retried.content)).toMatch(/already answered in the person's inbox.*nothing was done twice/);
    expect(deploys.get('4.0')).toBe(1);
  });

  it('that retries after the inbox answered: the tool sees the inbox answer once, and the client answer is not used', async () => {
    const person = await s.person('fay');
    const client = await v2('fay', async () => {
      const q = await person.waitFor('Deploy 5.0?');
      await person.answer(q.id, { action: 'accept', content: { approve: true, by: 'inbox' } });
      return { action: 'accept', content: { approve: true, by: 'client' } };
    });
    expect((await client.callTool({ name: 'deploy', arguments: { version: '5.0' } })).structuredContent).toEqual({
      deployed: true,
      by: 'inbox',
    });
    expect(deploys.get('5.0')).toBe(1);
    expect(await person.questions()).toEqual([]);
  });

  it('that answers first: the tool sees the client answer, and the inbox answer is refused as already answered (409)', async () => {
    const person = await s.person('gus');
    let id = '';
    const client = await v2('gus', async () => {
      id = (await person.waitFor('Deploy 6.0?')).id;
      return { action: 'accept', content: { approve: true, by: 'client' } };
    });
    expect((await client.callTool({ name: 'deploy', arguments: { version: '6.0' } })).structuredContent).toEqual({
      deployed: true,
      by: 'client',
    });
    expect(await person.questions()).toEqual([]);
    expect((await person.answer(id, { action: 'accept', content: { approve: true, by: 'inbox' } })).status).toBe(409);
    expect(deploys.get('6.0')).toBe(1);
  });
});
