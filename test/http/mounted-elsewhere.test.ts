// A createFetchHandler mounted at another path of an existing app (its /api/mcp) answers 404 saying which path it
// serves and how to change it, where it said a bare `not_found` and the official client blamed version negotiation (#34).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { App, createFetchHandler, Tool, ToolContext } from 'parley-mcp';
import { read } from '../helpers/requests';

@Tool({ name: 'ping_desk', inputSchema: {} })
class PingDesk extends ToolContext {
  execute() {
    return 'pong';
  }
}

@App({ id: 'desk', tools: [PingDesk] })
class Desk {}

const handler = createFetchHandler({ info: { name: 'desk', version: '1.0.0' }, apps: [Desk], logging: { level: 'error' } });
const WHERE = /This server answers MCP at \/mcp, not at this path: set http\.path in its config to the path it is mounted at/;

describe('a handler asked at a path it does not serve', () => {
  it('answers 404 naming the path it serves and the option that moves it', async () => {
    const { status, body } = await read(
      await handler(
        new Request('http://127.0.0.1/api/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
        }),
      ),
    );
    expect(status).toBe(404);
    expect(body).toEqual({ error: 'not_found', message: expect.stringMatching(WHERE) });
  });

  // In its 'auto' mode (in a pinned mode it reports only that negotiation failed, whatever the body says).
  it('the official v2 client, pointed at the wrong path, fails with that message', async () => {
    const client = new Client({ name: 'mounted', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    const fetchIt = (input: string | URL | Request, init?: RequestInit) => handler(new Request(input, init));
    const error = await client
      .connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/api/mcp'), { fetch: fetchIt }))
      .then(() => client.listTools())
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(error?.message).toMatch(WHERE);
  });
});
