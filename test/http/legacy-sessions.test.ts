import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { SESSION_SECRET_REQUIRED } from '../../src/http/legacy/post';
import { legacyDesk } from '../fixtures/legacy-desk';
import { LEGACY, legacyPost, openLegacySession, request, sseReader } from '../helpers/legacy';
import { read } from '../helpers/requests';

const handler = createFetchHandler(legacyDesk());
const get = (session: string, headers: Record<string, string> = {}) =>
  handler(
    new Request('http://127.0.0.1/mcp', { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': session, ...headers } }),
  );
const del = (session: string) => handler(new Request('http://127.0.0.1/mcp', { method: 'DELETE', headers: { 'mcp-session-id': session } }));
const call = (session: string, name: string, args: Record<string, unknown>) =>
  handler(legacyPost(request('tools/call', { name, arguments: args }), session));

describe('sessions of clients before 2026-07-28', () => {
  it('negotiates each legacy revision, and answers an unknown one with the newest', async () => {
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2099-01-01']) {
      const response = await handler(
        legacyPost(request('initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'x', version: '1' } })),
      );
      const { status, body } = await read(response);
      expect(status).toBe(200);
      expect(body.result.protocolVersion).toBe(version === '2099-01-01' ? '2025-11-25' : version);
      expect(body.result).toMatchObject({ serverInfo: { name: 'help-desk' }, capabilities: { tools: {}, logging: {} } });
      expect(response.headers.get('mcp-session-id')).toMatch(/^[\x21-\x7e]{32}$/);
    }
  });

  it('gives every session a different id', async () => {
    const ids = await Promise.all([1, 2, 3, 4].map(() => openLegacySession(handler)));
    expect(new Set(ids).size).toBe(4);
  });

  it('serves ping and logging/setLevel, and refuses a bad level', async () => {
    const session = await openLegacySession(handler);
    expect((await read(await handler(legacyPost(request('ping'), session)))).body.result).toEqual({});
    expect((await read(await handler(legacyPost(request('logging/setLevel', { level: 'warning' }), session)))).body.result).toEqual({});
    const bad = await read(await handler(legacyPost(request('logging/setLevel', { level: 'loud' }), session)));
    expect(bad.body.error.code).toBe(-32602);
    const unknown = await read(await handler(legacyPost(request('nothing/here'), session)));
    expect(unknown.body.error.code).toBe(-32601);
  });

  it('wants a session after initialize: 400 without one, 404 for one that does not exist', async () => {
    const missing = await handler(legacyPost(request('tools/list'), undefined, { 'mcp-protocol-version': LEGACY }));
    expect(missing.status).toBe(400);
    for (const id of ['no-such-session-0123456789', 'bad id!', 'x'.repeat(300)]) {
      const { status, body } = await read(await handler(legacyPost(request('tools/list'), id)));
      expect(status).toBe(404);
      expect(body.error).toEqual({ code: -32001, message: 'Session not found' });
    }
  });

  it('ends a session on DELETE: later POST and GET get 404', async () => {
    const session = await openLegacySession(handler);
    expect((await handler(legacyPost(request('tools/list'), session))).status).toBe(200);
    expect((await del(session)).status).toBe(204);
    expect((await handler(legacyPost(request('tools/list'), session))).status).toBe(404);
    expect((await get(session)).status).toBe(404);
    expect((await del(session)).status).toBe(404);
  });

  it('answers 405 to GET without a session and 406 to GET that does not accept an event stream', async () => {
    const session = await openLegacySession(handler);
    expect((await handler(new Request('http://127.0.0.1/mcp', { method: 'GET', headers: { accept: 'text/event-stream' } }))).status).toBe(
      405,
    );
    expect((await get(session, { accept: 'application/json' })).status).toBe(406);
    const stream = await get(session);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    await stream.body!.cancel();
  });

  it('sends elicitation/create on the call stream, takes the answer with 202, and resumes a lost stream by Last-Event-ID', async () => {
    const session = await openLegacySession(handler);
    const response = await call(session, 'close_ticket', { id: 'T-4' });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = sseReader(response);
    const question = (await events.next())!;
    expect(question.id).toMatch(/^[A-Za-z0-9_-]+:1$/);
    expect(question.data).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Close ticket T-4? The customer will be notified.' },
    });
    await events.cancel(); // the connection drops; the call goes on
    const answer = await handler(
      legacyPost({ jsonrpc: '2.0', id: question.data.id, result: { action: 'accept', content: { confirm: true } } }, session),
    );
    expect(answer.status).toBe(202);
    expect(await answer.text()).toBe('');
    const resumed = sseReader(await get(session, { 'last-event-id': question.id! }));
    const final = (await resumed.next())!;
    expect(final.data.result.structuredContent).toEqual({ closed: true, id: 'T-4', note: '' });
    expect(final.id).toBe(question.id!.replace(/:1$/, ':2'));
    expect(await resumed.next()).toBeUndefined();
    expect((await get(session, { 'last-event-id': 'nope:1' })).status).toBe(400);
  });

  it('stops a call on notifications/cancelled and sends nothing more on its stream', async () => {
    const session = await openLegacySession(handler);
    const body = request('tools/call', { name: 'close_ticket', arguments: { id: 'T-5' } });
    const events = sseReader(await handler(legacyPost(body, session)));
    expect((await events.next())!.data.method).toBe('elicitation/create');
    const cancelled = await handler(
      legacyPost({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: body.id, reason: 'user' } }, session),
    );
    expect(cancelled.status).toBe(202);
    expect(await events.next()).toBeUndefined();
  });

  it('refuses an answer sent from another session (410, no question of that session), and the question times out', async () => {
    const asker = await openLegacySession(handler);
    const other = await openLegacySession(handler);
    const events = sseReader(await call(asker, 'confirm_quickly', { id: 'T-6' }));
    const question = (await events.next())!;
    const stray = await handler(
      legacyPost({ jsonrpc: '2.0', id: question.data.id, result: { action: 'accept', content: { confirm: true } } }, other),
    );
    expect(stray.status).toBe(410);
    expect(await stray.json()).toMatchObject({
      id: question.data.id,
      error: { code: -31001, data: { code: 'ANSWER_UNDELIVERABLE', reason: 'no-question' } },
    });
    const final = (await events.next())!;
    expect(final.data.result).toMatchObject({ isError: true, _meta: { code: 'ELICITATION_TIMEOUT' } });
  });

  it('binds a session to the caller who opened it', async () => {
    const secret = 'a-test-secret-of-enough-length-000';
    const signed = createFetchHandler(legacyDesk({ auth: { secret } }));
    const token = (sub: string) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(secret));
    const nour = { authorization: `Bearer ${await token('nour')}` };
    const sam = { authorization: `Bearer ${await token('sam')}` };
    const session = await openLegacySession(signed, { elicitation: {} }, nour);
    expect((await signed(legacyPost(request('tools/list'), session, nour))).status).toBe(200);
    expect((await signed(legacyPost(request('tools/list'), session, sam))).status).toBe(404);
    expect((await signed(legacyPost(request('tools/list'), session))).status).toBe(401);
  });
});

describe('the fallback over the legacy transport', () => {
  it('is listed only to sessions without the elicitation capability', async () => {
    const names = async (capabilities: Record<string, unknown>) => {
      const session = await openLegacySession(handler, capabilities);
      return (await read(await handler(legacyPost(request('tools/list'), session)))).body.result.tools.map((t: { name: string }) => t.name);
    };
    expect(await names({})).toContain('sendElicitationResult');
    expect(await names({ elicitation: {} })).not.toContain('sendElicitationResult');
    expect(await names({ elicitation: { url: {} } })).not.toContain('sendElicitationResult');
  });

  it('belongs to the session that was asked', async () => {
    const session = await openLegacySession(handler, {});
    const other = await openLegacySession(handler, {});
    const asked = await read(await call(session, 'close_ticket', { id: 'T-7' }));
    const { elicitId } = asked.body.result._meta.elicitationPending;
    const answer = { elicitId, action: 'accept', content: { confirm: true } };
    const stolen = await read(await call(other, 'sendElicitationResult', answer));
    expect(stolen.body.error).toMatchObject({ code: -32003, data: { code: 'ELICITATION_NOT_OWNED' } });
    // It says how to finish: each run of a CLI client (the MCP Inspector's --cli) is a new session, so another caller.
    expect(stolen.body.error.message).toBe(
      `Elicitation "${elicitId}" was not requested by this caller: answer it in the session that was asked (a new session, such as each run of a CLI client, is another caller), or use a client that shows the form`,
    );
    const done = await read(await call(session, 'sendElicitationResult', answer));
    expect(done.body.result.structuredContent).toEqual({ closed: true, id: 'T-7', note: '' });
  });
});

describe('a client without elicitation (capabilities: {}) still gets its notifications', () => {
  const progressCall = (session: string, ask: boolean, progressToken: string) =>
    handler(legacyPost(request('tools/call', { name: 'report_and_ask', arguments: { ask }, _meta: { progressToken } }), session));

  it('a tool that asks nothing streams its progress and logs, then its result', async () => {
    const session = await openLegacySession(handler, {});
    expect((await handler(legacyPost(request('logging/setLevel', { level: 'info' }), session))).status).toBe(200);
    const response = await progressCall(session, false, 'p-1');
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = sseReader(response);
    const seen = [(await events.next())!.data, (await events.next())!.data, (await events.next())!.data];
    expect(seen[0]).toMatchObject({
      method: 'notifications/progress',
      params: { progressToken: 'p-1', progress: 1, total: 2, message: 'half way' },
    });
    expect(seen[1]).toMatchObject({ method: 'notifications/message', params: { level: 'info', data: 'working on it' } });
    expect(seen[2].result.structuredContent).toEqual({ asked: false });
    expect(await events.next()).toBeUndefined();
  });

  it('a tool that asks: its progress streams, the question comes back as the fallback pending result, and the answer runs it again', async () => {
    const session = await openLegacySession(handler, {});
    const events = sseReader(await progressCall(session, true, 'p-2'));
    expect((await events.next())!.data).toMatchObject({ method: 'notifications/progress', params: { progress: 1 } });
    const pending = (await events.next())!.data.result._meta.elicitationPending;
    expect(pending).toMatchObject({ message: 'Go on?', elicitId: expect.any(String) });
    const answer = request('tools/call', {
      name: 'sendElicitationResult',
      arguments: { elicitId: pending.elicitId, action: 'accept', content: { go: true } },
      _meta: { progressToken: 'p-3' },
    });
    const again = sseReader(await handler(legacyPost(answer, session)));
    expect((await again.next())!.data).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'p-3', progress: 1 } });
    expect((await again.next())!.data).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'p-3', progress: 2 } });
    expect((await again.next())!.data.result.structuredContent).toEqual({ asked: true, go: true });
  });

  it('a client that takes only JSON gets the plain result, as before', async () => {
    const session = await openLegacySession(handler, {});
    const response = await handler(
      legacyPost(request('tools/call', { name: 'report_and_ask', arguments: { ask: false } }), session, { accept: 'application/json' }),
    );
    expect(response.headers.get('content-type')).toContain('application/json');
    expect((await response.json()).result.structuredContent).toEqual({ asked: false });
  });
});

describe('a call whose session ends while its question waits', () => {
  it('DELETE on the same instance: the call stream carries a JSON-RPC error naming it before it closes', async () => {
    const session = await openLegacySession(handler);
    const events = sseReader(await call(session, 'close_ticket', { id: 'T-8' }));
    expect((await events.next())!.data.method).toBe('elicitation/create');
    expect((await handler(new Request('http://127.0.0.1/mcp', { method: 'DELETE', headers: { 'mcp-session-id': session } }))).status).toBe(
      204,
    );
    const final = (await events.next())!.data;
    expect(final).toMatchObject({ error: { code: -32001, data: { code: 'SESSION_ENDED' } } });
    expect(final.error.message).toContain('DELETE');
    expect(await events.next()).toBeUndefined();
  });

  it('a client that takes only JSON gets that error as its response', async () => {
    const session = await openLegacySession(handler);
    const events = sseReader(
      await handler(
        new Request('http://127.0.0.1/mcp', {
          method: 'GET',
          headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': LEGACY },
        }),
      ),
    );
    const pending = handler(
      legacyPost(request('tools/call', { name: 'close_ticket', arguments: { id: 'T-9' } }), session, { accept: 'application/json' }),
    );
    expect((await events.next())!.data.method).toBe('elicitation/create');
    await handler(new Request('http://127.0.0.1/mcp', { method: 'DELETE', headers: { 'mcp-session-id': session } }));
    expect((await (await pending).json()).error).toMatchObject({ code: -32001, data: { code: 'SESSION_ENDED' } });
  });
});

describe('legacy sessions in production', () => {
  it('need MCP_SESSION_SECRET: without it, initialize is refused with 503 and a JSON-RPC error naming it', async () => {
    const init = () =>
      legacyPost(request('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'x', version: '1' } }));
    const bare = createFetchHandler(legacyDesk({ logging: { level: 'error' } }));
    const asked = init();
    const { id } = await asked.clone().json();
    const response = await bare(asked, { env: { NODE_ENV: 'production' } });
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const refused = await read(response);
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ jsonrpc: '2.0', id, error: { code: -32603, message: SESSION_SECRET_REQUIRED } });
    expect(SESSION_SECRET_REQUIRED).toContain('MCP_SESSION_SECRET');
    const withSecret = createFetchHandler(legacyDesk({ logging: { level: 'error' } }));
    const served = await withSecret(init(), { env: { NODE_ENV: 'production', MCP_SESSION_SECRET: 'a-secret-for-sessions' } });
    expect(served.status).toBe(200);
    expect(served.headers.get('mcp-session-id')).toBeTruthy();
  });
});
