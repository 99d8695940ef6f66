import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/conformance/server';
import { legacyDesk } from '../fixtures/legacy-desk';
import { legacyPost, openLegacySession, request, sseReader } from '../helpers/legacy';
import { read } from '../helpers/requests';

const WATCHED = 'test://watched-resource';

describe('resources/subscribe before 2026-07-28, by hand', () => {
  const handler = createFetchHandler(config);
  const post = async (session: string, method: string, params: Record<string, unknown>) =>
    (await read(await handler(legacyPost(request(method, params), session)))).body;
  const getStream = async (session: string) =>
    sseReader(
      await handler(
        new Request('http://127.0.0.1/mcp', { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': session } }),
      ),
    );

  it('advertises subscribe, and sends notifications/resources/updated on the GET stream only for subscribed URIs, until unsubscribed', async () => {
    const init = await read(
      await handler(
        legacyPost(request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } })),
      ),
    );
    expect(init.body.result.capabilities.resources).toMatchObject({ subscribe: true });
    const session = await openLegacySession(handler);
    const events = await getStream(session);
    expect(await post(session, 'resources/subscribe', { uri: WATCHED })).toEqual({ jsonrpc: '2.0', id: expect.any(Number), result: {} });
    handler.changes.resourceUpdated('test://static-text');
    handler.changes.resourceUpdated(WATCHED);
    expect((await events.next())!.data).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: WATCHED } });
    expect((await post(session, 'resources/unsubscribe', { uri: WATCHED })).result).toEqual({});
    handler.changes.resourceUpdated(WATCHED);
    handler.changes.toolsListChanged();
    // The list change arrives next: the update after unsubscribe was never sent.
    expect((await events.next())!.data).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: {} });
    await events.cancel();
  });

  it("keeps each session's subscriptions its own", async () => {
    const [mine, theirs] = await Promise.all([openLegacySession(handler), openLegacySession(handler)]);
    const [myEvents, theirEvents] = await Promise.all([getStream(mine), getStream(theirs)]);
    await post(mine, 'resources/subscribe', { uri: WATCHED });
    handler.changes.resourceUpdated(WATCHED);
    handler.changes.promptsListChanged();
    expect((await myEvents.next())!.data.method).toBe('notifications/resources/updated');
    expect((await theirEvents.next())!.data.method).toBe('notifications/prompts/list_changed');
    await Promise.all([myEvents.cancel(), theirEvents.cancel()]);
  });

  it('refuses a missing or oversized uri, and a 101st subscription, with -32602', async () => {
    const session = await openLegacySession(handler);
    expect((await post(session, 'resources/subscribe', {})).error.code).toBe(-32602);
    expect((await post(session, 'resources/unsubscribe', { uri: 42 })).error.code).toBe(-32602);
    expect((await post(session, 'resources/subscribe', { uri: `test://${'x'.repeat(3000)}` })).error.code).toBe(-32602);
    for (let i = 0; i < 100; i++) expect((await post(session, 'resources/subscribe', { uri: `test://r/${i}` })).result).toEqual({});
    const refused = (await post(session, 'resources/subscribe', { uri: 'test://r/100' })).error;
    expect(refused).toMatchObject({ code: -32602, message: expect.stringContaining('at most 100') });
    // Subscribing again to a watched URI, or after unsubscribing one, still works.
    expect((await post(session, 'resources/subscribe', { uri: 'test://r/7' })).result).toEqual({});
    await post(session, 'resources/unsubscribe', { uri: 'test://r/7' });
    expect((await post(session, 'resources/subscribe', { uri: 'test://r/100' })).result).toEqual({});
  });

  it('is not served by a server without resources', async () => {
    const desk = createFetchHandler(legacyDesk());
    const session = await openLegacySession(desk);
    const answer = await read(await desk(legacyPost(request('resources/subscribe', { uri: WATCHED }), session)));
    expect(answer.body.error.code).toBe(-32601);
  });
});

describe('the official v1 client subscribes (2025-11-25)', () => {
  let server: RunningServer;
  let client: Client;
  const heard: string[] = [];
  beforeAll(async () => {
    server = await serve(config, { port: 0 });
    client = new Client({ name: 'v1-subscriber', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => void heard.push(`updated ${n.params.uri}`));
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void heard.push('tools changed'));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('hears updates of the resource it subscribed to on its GET stream, and none once it unsubscribed', async () => {
    await client.subscribeResource({ uri: WATCHED });
    // The client opens its GET stream on its own after initialize: announce until it is there to hear.
    await vi.waitFor(
      () => {
        server.changes.resourceUpdated(WATCHED);
        expect(heard).toContain(`updated ${WATCHED}`);
      },
      { timeout: 5000, interval: 50 },
    );
    await client.unsubscribeResource({ uri: WATCHED });
    heard.length = 0;
    server.changes.resourceUpdated(WATCHED);
    server.changes.toolsListChanged();
    await vi.waitFor(() => expect(heard).toContain('tools changed'));
    expect(heard).toEqual(['tools changed']);
  });
});
