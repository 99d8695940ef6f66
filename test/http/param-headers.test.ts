import { describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, createFetchHandler, z } from 'parley-mcp';
import { mcpRequest, read } from '../helpers/requests';

@Tool({
  name: 'route',
  description: 'Mirrors region, priority, urgent and a nested zone into Mcp-Param headers',
  inputSchema: {
    type: 'object' as const,
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      urgent: { type: 'boolean', 'x-mcp-header': 'Urgent' },
      where: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
      note: { type: 'string' },
    },
  },
})
class Route extends ToolContext {
  execute(input: Record<string, unknown>) {
    return input;
  }
}

@Tool({ name: 'zod_route', inputSchema: { region: z.string().meta({ 'x-mcp-header': 'Region' }) } })
class ZodRoute extends ToolContext {
  execute({ region }: { region: string }) {
    return region;
  }
}

@App({ id: 'routing', tools: [Route, ZodRoute] })
class Routing {}

const handler = createFetchHandler({ info: { name: 'routing', version: '1.0.0' }, apps: [Routing] });
const call = async (name: string, args: Record<string, unknown>, headers: Record<string, string | null> = {}) =>
  read(await handler(mcpRequest('tools/call', { name, arguments: args }, { headers })));
const b64 = (text: string) => `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(text)))}?=`;

describe('x-mcp-header and Mcp-Param-* validation', () => {
  it('publishes x-mcp-header as written, from JSON Schema and from zod .meta()', async () => {
    const { body } = await read(await handler(mcpRequest('tools/list')));
    const [route, zodRoute] = body.result.tools;
    expect(route.inputSchema.properties.region['x-mcp-header']).toBe('Region');
    expect(zodRoute.inputSchema.properties.region['x-mcp-header']).toBe('Region');
  });

  it('accepts headers that match the arguments: strings exactly or base64-decoded, integers numerically, booleans, nested values', async () => {
    const ok = await call(
      'route',
      { region: 'us-west1', priority: 3, urgent: true, where: { zone: 'b' } },
      { 'mcp-param-region': 'us-west1', 'mcp-param-priority': '3.0', 'mcp-param-urgent': 'true', 'mcp-param-zone': 'b' },
    );
    expect(ok.body.result.isError).toBeUndefined();
    const utf8 = await call('route', { region: 'Zürich' }, { 'mcp-param-region': b64('Zürich') });
    expect(utf8.body.result.structuredContent).toEqual({ region: 'Zürich' });
    const none = await call('route', { note: 'no mirrored values' });
    expect(none.status).toBe(200);
    const zod = await call('zod_route', { region: 'eu' }, { 'Mcp-Param-Region': ' eu ' });
    expect(zod.body.result.content[0].text).toBe('eu');
  });

  it('refuses with 400 and -32020 a missing, mismatched, badly encoded or unexpected header', async () => {
    const cases: [Record<string, unknown>, Record<string, string>, RegExp][] = [
      [{ region: 'us-west1' }, {}, /required/],
      [{ region: 'us-west1' }, { 'mcp-param-region': 'eu-north1' }, /does not match/],
      [{ priority: 3 }, { 'mcp-param-priority': '4' }, /does not match/],
      [{ priority: 3 }, { 'mcp-param-priority': '' }, /does not match/],
      [{ urgent: false }, { 'mcp-param-urgent': 'true' }, /does not match/],
      [{ where: { zone: 'a' } }, { 'mcp-param-zone': 'b' }, /does not match/],
      [{ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG8?=' }, /invalid base64/],
      [{ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' }, /invalid base64/],
      [{}, { 'mcp-param-region': 'us-west1' }, /has no value/],
    ];
    for (const [args, headers, message] of cases) {
      const { status, body } = await call('route', args, headers);
      expect([status, body.error?.code]).toEqual([400, -32020]);
      expect(body.error.message).toMatch(message);
    }
  });

  it('treats a value without the full =?base64?…?= wrapper as literal', async () => {
    const literal = await call('route', { region: '=?base64?SGVsbG8=' }, { 'mcp-param-region': '=?base64?SGVsbG8=' });
    expect(literal.status).toBe(200);
  });

  it('refuses to start a server whose x-mcp-header is not a token, sits on an object, or repeats', async () => {
    const bad = (property: Record<string, unknown>, twice = false) => {
      @Tool({
        name: 'bad',
        inputSchema: {
          type: 'object' as const,
          properties: { a: property, ...(twice ? { b: { type: 'string', 'x-mcp-header': 'region' } } : {}) },
        },
      })
      class Bad extends ToolContext {
        execute() {
          return '';
        }
      }
      @App({ id: 'bad', tools: [Bad] })
      class BadApp {}
      return createFetchHandler({ info: { name: 'bad', version: '1.0.0' }, apps: [BadApp] });
    };
    for (const h of [
      bad({ type: 'string', 'x-mcp-header': 'Has Space' }),
      bad({ type: 'object', 'x-mcp-header': 'Obj' }),
      bad({ type: 'string', 'x-mcp-header': 'Region' }, true),
    ]) {
      const response = await h(mcpRequest('tools/list'));
      expect(response.status).toBe(503);
    }
  });
});
