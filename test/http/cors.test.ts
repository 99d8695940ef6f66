// CORS on the fetch handler: preflights for listed origins, the headers MCP clients send, the ones they read exposed,
// '*' without credentials, and the config that would break those rules refused at startup with what to write.
import { describe, expect, it } from 'vitest';
import { createFetchHandler, type FrontMcpConfigInput } from 'parley-mcp';
import { mcpRequest } from '../helpers/requests';

const APP = 'https://app.example';
const handlerWith = (http: FrontMcpConfigInput['http'], extra: Partial<FrontMcpConfigInput> = {}) =>
  createFetchHandler({ info: { name: 'cors', version: '1.0.0' }, http, ...extra });

const preflightFrom = (origin: string, headers = 'content-type, mcp-protocol-version, mcp-param-region, x-evil, authorization') =>
  new Request('http://127.0.0.1/mcp', {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
  });

describe('http.cors', () => {
  it('answers a listed origin’s preflight with the MCP headers it asked for, and no others; off by default', async () => {
    const response = await handlerWith({ allowedOrigins: [APP], cors: true })(preflightFrom(APP));
    expect(response.status).toBe(204);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'access-control-allow-origin': APP,
      'access-control-allow-methods': 'GET, POST, DELETE',
      'access-control-allow-headers': 'content-type, mcp-protocol-version, mcp-param-region, authorization',
      'access-control-max-age': '600',
      vary: 'Origin, Access-Control-Request-Headers',
    });
    expect(response.headers.has('access-control-allow-credentials')).toBe(false);
    const off = await handlerWith({ allowedOrigins: [APP] })(preflightFrom(APP));
    expect([off.status, off.headers.has('access-control-allow-origin')]).toEqual([405, false]);
  });

  it('in development, without http.cors: a loopback page calling a server reached on loopback, and only that', async () => {
    const handler = handlerWith({});
    const vite = 'http://localhost:5173';
    const response = await handler(preflightFrom(vite));
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(vite);
    expect(response.headers.has('access-control-allow-credentials')).toBe(false);
    const answer = await handler(mcpRequest('tools/list', {}, { headers: { origin: 'http://[::1]:8080' } }));
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://[::1]:8080');
    // The same page calling the server at a public name (a tunnel, a deploy) gets nothing: that needs http.cors.
    const reachedPublicly = preflightFrom(vite);
    const publicOne = await handler(new Request('https://mcp.example.com/mcp', { method: 'OPTIONS', headers: reachedPublicly.headers }));
    expect(publicOne.headers.has('access-control-allow-origin')).toBe(false);
    // With http.cors set, its list decides, loopback pages included.
    const listed = await handlerWith({ allowedOrigins: [APP], cors: true })(preflightFrom(vite));
    expect(listed.headers.has('access-control-allow-origin')).toBe(false);
  });

  it('exposes Mcp-Session-Id and WWW-Authenticate on answers, a 401 challenge included', async () => {
    const handler = handlerWith({ allowedOrigins: [APP], cors: { credentials: true, maxAge: 60 } }, { auth: { secret: 'x'.repeat(32) } });
    const response = await handler(mcpRequest('tools/list', {}, { headers: { origin: APP } }));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'Mcp-Session-Id, WWW-Authenticate',
      vary: 'Origin',
    });
    expect((await handler(preflightFrom(APP))).headers.get('access-control-max-age')).toBe('60');
  });

  it("'*' lets any origin through the Origin check and answers it with *; a null origin, or one unlisted, refused", async () => {
    const listed = handlerWith({ allowedOrigins: [APP], cors: true });
    expect((await listed(preflightFrom('https://evil.example'))).status).toBe(403);
    const call = await listed(mcpRequest('tools/list', {}, { headers: { origin: 'https://evil.example' } }));
    expect([call.status, call.headers.has('access-control-allow-origin')]).toEqual([403, false]);
    const handler = handlerWith({ allowedOrigins: ['*'], cors: true });
    const response = await handler(mcpRequest('tools/list', {}, { headers: { origin: 'https://anywhere.example' } }));
    expect([response.status, response.headers.get('access-control-allow-origin')]).toEqual([200, '*']);
    expect((await handler(mcpRequest('tools/list', {}, { headers: { origin: 'null' } }))).status).toBe(403);
  });

  it('refuses credentials with *, and FrontMCP’s cors.origin, saying what to write', async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      const star = handlerWith({ allowedOrigins: ['*'], cors: { credentials: true } });
      expect((await star(mcpRequest('tools/list'))).status).toBe(503);
      const origin = handlerWith({ cors: { origin: [APP] } as never });
      expect((await origin(mcpRequest('tools/list'))).status).toBe(503);
    } finally {
      console.error = original;
    }
    expect(errors.join('\n')).toContain(
      "http.cors.credentials: credentials cannot go with '*' in http.allowedOrigins: list each origin instead",
    );
    expect(errors.join('\n')).toContain(
      'http.cors.origin: list the origins in http.allowedOrigins: one list serves the Origin check and CORS',
    );
  });
});
