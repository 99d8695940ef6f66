import { test, expect } from 'parley-mcp/testing';

const connect = (capabilities: Record<string, unknown>, inputResponses?: Record<string, unknown>) =>
  ({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'connect_billing',
      arguments: {},
      ...(inputResponses ? { inputResponses } : {}),
      _meta: { 'io.modelcontextprotocol/clientCapabilities': capabilities },
    },
  }) as const;

test('the client is asked to open the page', async ({ mcp }) => {
  const response = await mcp.raw.request(connect({ elicitation: { url: {} } }));
  expect(response.result.inputRequests['elicitation-1'].params).toMatchObject({
    message: 'Sign in to your billing account to connect it',
    mode: 'url',
    url: 'https://billing.example/connect?state=abc123',
    elicitationId: 'billing-abc123',
  });
});

test('its answer runs the tool again', async ({ mcp }) => {
  const response = await mcp.raw.request(connect({ elicitation: { url: {} } }, { 'elicitation-1': { action: 'accept' } }));
  expect(response.result.structuredContent).toEqual({ connected: true });
});

test('without an `elicitationId`, FrontMCP makes one up', async ({ mcp }) => {
  const response = await mcp.raw.request({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'connect_payroll',
      arguments: {},
      _meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } } },
    },
  });
  expect(response.result.inputRequests['elicitation-1'].params.elicitationId).toMatch(/^elicit-[0-9a-f-]{36}$/);
});

test('a client that only shows forms gets -32021', async ({ mcp }) => {
  const response = await mcp.raw.request(connect({ elicitation: { form: {} } }));
  expect(response).toHaveErrorCode(-32021);
  expect(response.error.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
});
