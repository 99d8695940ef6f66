// Graceful shutdown with older clients' calls mid-question: no new calls, answers within the grace period still land,
// and the calls left end with a JSON-RPC error on their streams.
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { legacyDesk } from '../fixtures/legacy-desk';
import { LEGACY, legacyPost, openLegacySession, request, sseReader } from '../helpers/legacy';
import { mcpRequest } from '../helpers/requests';
import { eventReader } from '../helpers/sse';

const ask = async (handler: ReturnType<typeof createFetchHandler>, session: string, id: string) => {
  const events = sseReader(await handler(legacyPost(request('tools/call', { name: 'close_ticket', arguments: { id } }), session)));
  const question = (await events.next())!.data;
  expect(question.method).toBe('elicitation/create');
  return { events, question };
};

describe('handler.close({ graceMs })', () => {
  it('refuses new calls, lets a waiting question be answered within the grace, and ends the rest with -31002', async () => {
    const handler = createFetchHandler(legacyDesk({ logging: { level: 'error' } }));
    const session = await openLegacySession(handler);
    const [answered, abandoned] = [await ask(handler, session, 'G-1'), await ask(handler, session, 'G-2')];
    const closed = handler.close({ graceMs: 300 });
    const call = request('tools/call', { name: 'close_ticket', arguments: { id: 'G-3' } });
    const refused = await handler(legacyPost(call, session));
    expect(refused.status).toBe(503);
    // A refusal to try again, as a limit's 503 is: Retry-After says when (another instance serves the next request).
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      id: call.id,
      error: { code: -31002, data: { code: 'SHUTTING_DOWN', retryAfterSeconds: 1 } },
    });
    const reply = await handler(
      legacyPost({ jsonrpc: '2.0', id: answered.question.id, result: { action: 'accept', content: { confirm: true } } }, session),
    );
    expect(reply.status).toBe(202);
    expect((await answered.events.next())!.data.result.structuredContent).toMatchObject({ closed: true, id: 'G-1' });
    await closed;
    const last = (await abandoned.events.next())!.data;
    expect(last).toMatchObject({ id: expect.anything(), error: { code: -31002, data: { code: 'SHUTTING_DOWN' } } });
    expect(await abandoned.events.next()).toBeUndefined();
  });

  it('returns at once when no question waits', async () => {
    const handler = createFetchHandler(legacyDesk({ logging: { level: 'error' } }));
    await openLegacySession(handler);
    const started = Date.now();
    await handler.close({ graceMs: 5_000 });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("ends open streams cleanly: a listen stream with its closing result, a session's GET stream, and returns", async () => {
    const handler = createFetchHandler(legacyDesk({ logging: { level: 'error' } }));
    const listen = eventReader(await handler(mcpRequest('subscriptions/listen', { notifications: { toolsListChanged: true } })));
    expect((await listen.next()).method).toBe('notifications/subscriptions/acknowledged');
    const session = await openLegacySession(handler);
    const headers = { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': LEGACY };
    const get = await handler(new Request('http://127.0.0.1/mcp', { method: 'GET', headers }));
    expect(get.status).toBe(200);
    await handler.close({ graceMs: 5_000 });
    expect(await listen.next()).toMatchObject({ result: { resultType: 'complete' } });
    await expect(listen.next()).rejects.toThrow('The stream ended');
    expect(await get.text()).toMatch(/^id: /); // its priming event, then its end
  });
});
