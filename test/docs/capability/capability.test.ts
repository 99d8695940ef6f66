import { test, expect } from 'parley-mcp/testing';
import { App, FrontMcpInstance } from 'parley-mcp';
import { CloseTicket } from './close-ticket.tool';

@App({ id: 'desk', name: 'Help desk', tools: [CloseTicket] })
class HelpDesk {}

// Parley departs from the page here: on 2026-07-28 a client without the capability gets the fallback, not -32021.
test('a client without the elicitation capability gets the fallback, not -32021', async ({ mcp }) => {
  const response = await mcp.raw.request({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'close_ticket',
      arguments: { id: 'T-1' },
      _meta: { 'io.modelcontextprotocol/clientCapabilities': {} },
    },
  });
  expect(response.error).toBeUndefined();
  expect(response.result._meta.elicitationPending).toMatchObject({ message: expect.stringContaining('T-1') });
});

test('a request that names no protocol version gets ELICITATION_NOT_SUPPORTED instead', async () => {
  // No MCP-Protocol-Version header and no _meta: FrontMCP serves it as 2026-07-28 anyway.
  const handler = await FrontMcpInstance.createFetchHandler({
    info: { name: 'help-desk', version: '1.0.0' },
    apps: [HelpDesk],
    elicitation: { enabled: true },
  });
  const response = await handler(
    new Request('https://desk.example.com/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'close_ticket', arguments: { id: 'T-1' } } }),
    }),
  );
  const { result } = await response.json();
  expect(result).toMatchObject({ isError: true, _meta: { code: 'ELICITATION_NOT_SUPPORTED' } });
});
