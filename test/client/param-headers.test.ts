// The client mirrors x-mcp-header arguments into Mcp-Param-* headers, learning them from tools/list when it must.
import { afterEach, describe, expect, it } from 'vitest';
import { App, createFetchHandler, Tool, ToolContext } from 'parley-mcp';
import { McpClient } from 'parley-mcp/client';

@Tool({
  name: 'route',
  description: 'Echoes its arguments; region, priority, urgent and where.zone travel as headers too',
  inputSchema: {
    type: 'object' as const,
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      urgent: { type: 'boolean', 'x-mcp-header': 'Urgent' },
      where: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
    },
  },
})
class Route extends ToolContext {
  execute(input: Record<string, unknown>) {
    return input;
  }
}

@App({ id: 'routing', tools: [Route] })
class Routing {}

const handler = createFetchHandler({ info: { name: 'routing', version: '1.0.0' }, apps: [Routing] });
let client: McpClient;
afterEach(() => client?.close());

function recording() {
  const sent: { method: string; headers: Headers }[] = [];
  client = new McpClient({
    url: 'http://localhost/mcp',
    fetch: async (request) => {
      sent.push({ method: JSON.parse(await request.clone().text()).method, headers: request.headers });
      return handler(request);
    },
  });
  return sent;
}

const args = { region: 'Zürich', priority: 3, urgent: true, where: { zone: 'eu-2' } };

describe('Mcp-Param-* headers', () => {
  it('learns the headers from tools/list when the server asks for them, then sends them up front', async () => {
    const sent = recording();
    expect((await client.callTool({ name: 'route', arguments: args })).structuredContent).toEqual(args);
    expect(sent.map((s) => s.method)).toEqual(['tools/call', 'tools/list', 'tools/call']);
    const call = sent[2]!.headers;
    expect(call.get('mcp-param-region')).toBe(`=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode('Zürich')))}?=`);
    expect([call.get('mcp-param-priority'), call.get('mcp-param-urgent'), call.get('mcp-param-zone')]).toEqual(['3', 'true', 'eu-2']);

    sent.length = 0;
    await client.callTool({ name: 'route', arguments: { region: 'us-west1' } });
    expect(sent.map((s) => s.method)).toEqual(['tools/call']);
    expect(sent[0]!.headers.get('mcp-param-region')).toBe('us-west1');
    expect(sent[0]!.headers.get('mcp-param-zone')).toBeNull();
  });

  it('a client that listed the tools first needs no extra round', async () => {
    const sent = recording();
    await client.listTools();
    await client.callTool({ name: 'route', arguments: { urgent: false } });
    expect(sent.map((s) => s.method)).toEqual(['tools/list', 'tools/call']);
  });
});
