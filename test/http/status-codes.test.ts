import { describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { config } from '../../examples/help-desk/server';
import { mcpRequest, meta, rawPost, read } from '../helpers/requests';

const handler = createFetchHandler({ ...config, http: { maxBodyBytes: 4096 } });

describe('the 2026-07-28 endpoint', () => {
  it('serves server/discover with the server info, versions and cache hints', async () => {
    const { status, body } = await read(await handler(mcpRequest('server/discover')));
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.arrayContaining(['2026-07-28']),
      ttlMs: expect.any(Number),
      cacheScope: 'public',
    });
    expect(body.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'help-desk', version: '1.0.0' });
  });

  it('lists tools in the same order every time, with cache hints', async () => {
    const first = await read(await handler(mcpRequest('tools/list')));
    const second = await read(await handler(mcpRequest('tools/list')));
    const names = first.body.result.tools.map((t: { name: string }) => t.name);
    expect(names.slice(0, 3)).toEqual(['close_ticket', 'escalate_ticket', 'reassign_ticket']);
    expect(second.body.result.tools.map((t: { name: string }) => t.name)).toEqual(names);
    expect(first.body.result).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number), cacheScope: 'public' });
  });

  it('answers GET and DELETE with 405 and Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await handler(new Request('http://127.0.0.1/mcp', { method }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('accepts a notification with 202 and an empty body', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: meta(), requestId: 1 } });
    const response = await handler(rawPost(body, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'notifications/cancelled' }));
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('refuses a request missing _meta fields with -32602 and 400', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    });
    const { status, body: json } = await read(
      await handler(rawPost(body, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' })),
    );
    expect(status).toBe(400);
    expect(json.error.code).toBe(-32602);
  });

  it('refuses missing or mismatched MCP headers with -32020 and 400', async () => {
    const cases = [
      mcpRequest('tools/list', {}, { headers: { 'mcp-protocol-version': null } }),
      mcpRequest('tools/list', {}, { headers: { 'mcp-method': null } }),
      mcpRequest('tools/list', {}, { headers: { 'mcp-method': 'tools/call' } }),
      mcpRequest('tools/call', { name: 'list_tickets', arguments: {} }, { headers: { 'mcp-name': 'delete_ticket' } }),
      mcpRequest('tools/call', { name: 'list_tickets', arguments: {} }, { headers: { 'mcp-name': null } }),
    ];
    for (const request of cases) {
      const { status, body } = await read(await handler(request));
      expect(status).toBe(400);
      expect(body.error.code).toBe(-32020);
    }
  });

  it('decodes =?base64?…?= header values before comparing', async () => {
    const encoded = `=?base64?${btoa('list_tickets')}?=`;
    const { status, body } = await read(
      await handler(mcpRequest('tools/call', { name: 'list_tickets', arguments: {} }, { headers: { 'mcp-name': encoded } })),
    );
    expect(status).toBe(200);
    // list_tickets ran (how many tickets the example's shared store holds depends on the tests before).
    expect(body.result.structuredContent).toEqual({ tickets: expect.any(Array) });
  });

  it('refuses an unsupported version with -32022, naming what it supports', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } },
    });
    const { status, body: json } = await read(
      await handler(rawPost(body, { 'mcp-protocol-version': '1900-01-01', 'mcp-method': 'tools/list' })),
    );
    expect(status).toBe(400);
    expect(json.error).toMatchObject({
      code: -32022,
      data: { supported: expect.arrayContaining(['2026-07-28']), requested: '1900-01-01' },
    });
  });

  it('answers an unknown or removed method with -32601 and 404', async () => {
    // initialize inside a 2026-07-28 _meta envelope is a removed method, not an older client's handshake.
    for (const method of ['nope/nothing', 'ping', 'resources/subscribe', 'initialize']) {
      const { status, body } = await read(await handler(mcpRequest(method)));
      expect(status).toBe(404);
      expect(body.error.code).toBe(-32601);
    }
  });

  it('serves a request that names 2026-07-28 in _meta as such, even with a stray Mcp-Session-Id (as stdio does)', async () => {
    const { status, body } = await read(
      await handler(mcpRequest('tools/list', {}, { headers: { 'mcp-session-id': 'no-such-session-0123456789' } })),
    );
    expect([status, body.result?.resultType]).toEqual([200, 'complete']);
  });

  it('answers malformed JSON with -32700, and a non-JSON-RPC body with -32600', async () => {
    const parse = await read(await handler(rawPost('{"jsonrpc": "2.0", "id": 1, "method":')));
    expect(parse).toMatchObject({ status: 400, body: { error: { code: -32700 } } });
    for (const bad of [
      '[]',
      '42',
      '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":{},"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]}',
    ]) {
      const { status, body } = await read(await handler(rawPost(bad)));
      expect(status).toBe(400);
      expect(body.error.code).toBe(-32600);
    }
  });

  it('answers a body over the limit with 413 and a JSON-RPC error, declared or streamed', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(10_000) } });
    const declared = await read(await handler(rawPost(big)));
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe(-32600);
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) });
    const streamed = await handler(new Request('http://127.0.0.1/mcp', { method: 'POST', body: stream, duplex: 'half' } as RequestInit));
    expect(streamed.status).toBe(413);
  });

  it('refuses a foreign Origin with 403 and accepts loopback and same-origin ones', async () => {
    const evil = await handler(mcpRequest('tools/list', {}, { headers: { origin: 'https://evil.example' } }));
    expect(evil.status).toBe(403);
    const local = await handler(mcpRequest('tools/list', {}, { headers: { origin: 'http://localhost:5173' } }));
    expect(local.status).toBe(200);
    const same = await handler(
      mcpRequest('tools/list', {}, { url: 'https://desk.example.com/mcp', headers: { origin: 'https://desk.example.com' } }),
    );
    expect(same.status).toBe(200);
  });

  it('refuses a foreign Host when hosts are checked (DNS rebinding), and allows listed ones', async () => {
    const guarded = createFetchHandler({ ...config, http: { allowedHosts: ['desk.example.com'] } });
    const rebinding = await guarded(
      mcpRequest('tools/list', {}, { url: 'http://evil.example:3000/mcp', headers: { host: 'evil.example:3000' } }),
    );
    expect(rebinding.status).toBe(403);
    const listed = await guarded(mcpRequest('tools/list', {}, { url: 'http://desk.example.com/mcp' }));
    expect(listed.status).toBe(200);
  });

  it('gives an unknown tool -32602, and bad arguments an INVALID_INPUT tool error', async () => {
    const unknown = await read(await handler(mcpRequest('tools/call', { name: 'no_such_tool', arguments: {} })));
    expect(unknown.body.error.code).toBe(-32602);
    const badArgs = await read(await handler(mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 42 } })));
    expect(badArgs.status).toBe(200);
    expect(badArgs.body.result).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
  });

  it('answers a config that cannot start with 503 SERVER_START_FAILED, and retries on the next request', async () => {
    let apps: Function[] = [class NotAnApp {}];
    const broken = createFetchHandler({
      info: { name: 'x', version: '1' },
      get apps() {
        return apps;
      },
    } as never);
    const first = await handler(mcpRequest('tools/list'));
    expect(first.status).toBe(200);
    const failed = await broken(mcpRequest('tools/list'));
    expect(failed.status).toBe(503);
    expect((await failed.json()).error).toBe('SERVER_START_FAILED');
    apps = [];
    expect((await broken(mcpRequest('tools/list'))).status).toBe(200);
  });
});
