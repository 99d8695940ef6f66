// Bearer tokens checked as the MCP authorization spec requires: the audience (the resource) by default, `exp` required,
// algorithms pinned, issuer lists, the JWKS found from the issuer's metadata, a client's token without `sub`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT, type JWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { Who } from '../helpers/whoami';
import { mcpRequest, read } from '../helpers/requests';

const RESOURCE = 'http://127.0.0.1/mcp'; // where mcpRequest posts
let idp: Server;
let base = '';
let keys: JWK[] = [];
let signing: CryptoKey;
const metadataHits: string[] = [];

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  signing = pair.privateKey;
  keys = [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }];
  // An issuer at the root (OpenID Connect metadata) and one with a path (RFC 8414 metadata only), sharing one JWKS.
  idp = createServer((request, response) => {
    const json = (body: unknown) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    metadataHits.push(request.url ?? '');
    if (request.url === '/.well-known/openid-configuration') return json({ issuer: base, jwks_uri: `${base}/jwks` });
    if (request.url === '/.well-known/oauth-authorization-server/tenant')
      return json({ issuer: `${base}/tenant`, jwks_uri: `${base}/jwks` });
    if (request.url === '/liar/.well-known/openid-configuration')
      return json({ issuer: 'https://other.example', jwks_uri: `${base}/jwks` });
    if (request.url === '/jwks') return json({ keys });
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => idp.close(resolve)));
afterEach(() => vi.useRealTimers());

const sign = (claims: JWTPayload, options: { key?: CryptoKey | Uint8Array; alg?: string; exp?: string | false } = {}) => {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'ES256', kid: 'k1' }).setIssuedAt();
  if (options.exp !== false) jwt = jwt.setExpirationTime(options.exp ?? '5m');
  return jwt.sign(options.key ?? signing);
};

const server = (auth: Record<string, unknown>, logger?: object) =>
  createFetchHandler({ info: { name: 'who', version: '1.0.0' }, apps: [Who], auth, ...(logger ? { logger } : {}) } as never);

const call = async (handler: ReturnType<typeof createFetchHandler>, token: string, url?: string) =>
  read(await handler(mcpRequest('tools/call', { name: 'whoami', arguments: {} }, { headers: { authorization: `Bearer ${token}` }, url })));

describe('the audience is the resource, by default', () => {
  it('takes a token for this resource (a string, a list, one trailing slash either way) and refuses one for another', async () => {
    const handler = server({ jwksUrl: `${base}/jwks`, issuer: base });
    for (const aud of [RESOURCE, `${RESOURCE}/`, ['https://api.example', RESOURCE]])
      expect((await call(handler, await sign({ sub: 'alice', iss: base, aud }))).status, JSON.stringify(aud)).toBe(200);
    for (const aud of ['https://api.example', `${RESOURCE}//`, 'http://127.0.0.1/mcp/other', undefined]) {
      const { status, body } = await call(handler, await sign({ sub: 'alice', iss: base, aud }));
      expect(status, String(aud)).toBe(401);
      expect(body.error).toBe('invalid_token');
    }
  });

  it('checks against auth.resource when set, and against `audience` (a list) when given; audience: false takes any', async () => {
    const configured = server({ jwksUrl: `${base}/jwks`, resource: 'https://mcp.example/mcp' });
    expect((await call(configured, await sign({ sub: 'a', aud: 'https://mcp.example/mcp' }))).status).toBe(200);
    expect((await call(configured, await sign({ sub: 'a', aud: RESOURCE }))).status).toBe(401);
    const listed = server({ jwksUrl: `${base}/jwks`, audience: ['api://desk', 'api://other'] });
    expect((await call(listed, await sign({ sub: 'a', aud: 'api://other' }))).status).toBe(200);
    expect((await call(listed, await sign({ sub: 'a', aud: RESOURCE }))).status).toBe(401);
    const any = server({ jwksUrl: `${base}/jwks`, audience: false });
    expect((await call(any, await sign({ sub: 'a', aud: 'https://api.example' }))).status).toBe(200);
  });

  it('with a secret, checks the audience once a resource is configured', async () => {
    const key = new TextEncoder().encode('a-secret-of-this-server');
    const handler = server({ secret: 'a-secret-of-this-server', resource: 'https://mcp.example/mcp' });
    expect((await call(handler, await sign({ sub: 'a', aud: 'https://mcp.example/mcp' }, { key, alg: 'HS256' }))).status).toBe(200);
    expect((await call(handler, await sign({ sub: 'a' }, { key, alg: 'HS256' }))).status).toBe(401);
  });

  it('warns in production when only the request can say what the resource is, and not once one is named', async () => {
    const warned = async (auth: Record<string, unknown>, http: Record<string, unknown> = {}) => {
      const lines: string[] = [];
      const logger = { debug() {}, info() {}, warn: (line: string) => lines.push(line), error() {} };
      const handler = createFetchHandler({ info: { name: 'who', version: '1.0.0' }, apps: [Who], auth, http, logger } as never);
      await handler(mcpRequest('tools/list'), { env: { NODE_ENV: 'production' } });
      return lines.some((line) => line.includes('set auth.resource, or http.publicUrl'));
    };
    expect(await warned({ jwksUrl: `${base}/jwks` })).toBe(true);
    expect(await warned({ jwksUrl: `${base}/jwks`, resource: 'https://mcp.example/mcp' })).toBe(false);
    expect(await warned({ jwksUrl: `${base}/jwks` }, { publicUrl: 'https://mcp.example' })).toBe(false);
    expect(await warned({ secret: 'a-secret-of-this-server' })).toBe(false);
  });
});

describe('what a token must be', () => {
  it('refuses a token without exp, an alg none token, and an HS512 token with the right secret (auth.secret is HS256)', async () => {
    const secret = 'a-secret-of-this-server';
    const key = new TextEncoder().encode(secret);
    const handler = server({ secret });
    expect((await call(handler, await sign({ sub: 'a' }, { key, alg: 'HS256' }))).status).toBe(200);
    const none = `${btoa(JSON.stringify({ alg: 'none' }))}.${btoa(JSON.stringify({ sub: 'a', exp: 4e9 }))}.`.replaceAll('=', '');
    const refused = [await sign({ sub: 'a' }, { key, alg: 'HS256', exp: false }), await sign({ sub: 'a' }, { key, alg: 'HS512' }), none];
    for (const token of refused) expect((await call(handler, token)).status).toBe(401);
    expect((await call(server({ jwksUrl: `${base}/jwks`, audience: false }), await sign({ sub: 'a' }, { exp: false }))).status).toBe(401);
  });

  it("takes a client's token without sub as the client (client_id, else azp), with its scopes", async () => {
    const handler = server({ jwksUrl: `${base}/jwks` });
    const { body } = await call(handler, await sign({ client_id: 'reporter', aud: RESOURCE, scope: 'tickets:read tickets:write' }));
    expect(body.result.structuredContent).toEqual({ sub: 'reporter', clientId: 'reporter', scopes: ['tickets:read', 'tickets:write'] });
    const azp = await call(handler, await sign({ azp: 'nightly', aud: RESOURCE, scp: ['tickets:read'] }));
    expect(azp.body.result.structuredContent).toEqual({ sub: 'nightly', clientId: 'nightly', scopes: ['tickets:read'] });
    expect((await call(handler, await sign({ aud: RESOURCE }))).status).toBe(401);
  });

  it('ignores a token in the query string: only the Authorization header counts', async () => {
    const handler = server({ jwksUrl: `${base}/jwks` });
    const token = await sign({ sub: 'a', aud: RESOURCE });
    const response = await handler(
      mcpRequest('tools/call', { name: 'whoami', arguments: {} }, { url: `${RESOURCE}?access_token=${token}` }),
    );
    expect(response.status).toBe(401);
  });

  it('answers 401 from the headers before reading the body: a malformed body without a token is not parsed', async () => {
    const handler = server({ jwksUrl: `${base}/jwks` });
    const response = await handler(
      new Request(RESOURCE, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc":',
      }),
    );
    expect(response.status).toBe(401);
  });

  it('keeps a verified token no longer than it is valid', async () => {
    const handler = server({ jwksUrl: `${base}/jwks`, clockToleranceSec: 5 });
    const token = await sign({ sub: 'a', aud: RESOURCE }, { exp: '60s' });
    expect((await call(handler, token)).status).toBe(200);
    // Times from the token's own exp, in whole seconds as JWTs write it (from Date.now() a test slow by a second could
    // land past the tolerance where it meant to be within it).
    const exp = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(exp + 4_000); // past exp, within the tolerance
    expect((await call(handler, token)).status).toBe(200);
    vi.setSystemTime(exp + 6_000); // past exp plus the tolerance
    expect((await call(handler, token)).status).toBe(401);
  });
});

describe('the issuer', () => {
  it("finds the JWKS from the issuer's metadata: OpenID Connect at the root, RFC 8414 for an issuer with a path", async () => {
    const handler = server({ issuer: [base, `${base}/tenant`] });
    expect((await call(handler, await sign({ sub: 'a', iss: base, aud: RESOURCE }))).status).toBe(200);
    expect((await call(handler, await sign({ sub: 'b', iss: `${base}/tenant`, aud: RESOURCE }))).status).toBe(200);
    expect(metadataHits).toContain('/.well-known/oauth-authorization-server/tenant');
    // An issuer the server does not list, even signed by a trusted key, is refused.
    expect((await call(handler, await sign({ sub: 'c', iss: `${base}/elsewhere`, aud: RESOURCE }))).status).toBe(401);
  });

  it('answers 503 with a log line when the metadata names another issuer or cannot be found', async () => {
    const errors: string[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (line: string) => errors.push(line) };
    for (const issuer of [`${base}/liar`, `${base}/nothing`]) {
      const { status } = await call(server({ issuer }, logger), await sign({ sub: 'a', iss: issuer, aud: RESOURCE }));
      expect(status).toBe(503);
    }
    expect(errors.join('\n')).toContain('is for issuer "https://other.example"');
  });

  it('refuses at startup an auth with no way to verify, or two, naming what to write', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (const auth of [{ audience: 'x' }, { secret: 's', jwksUrl: `${base}/jwks` }, { issuer: 'not-a-url' }])
        expect((await server(auth)(mcpRequest('tools/list'))).status).toBe(503);
      const lines = printed.mock.calls.map((args) => String(args[0]));
      expect(lines[0]).toContain("issuer: 'https://idp.example'");
      expect(lines[1]).toContain('set one of secret and jwksUrl');
      expect(lines[2]).toContain('auth.issuer');
    } finally {
      printed.mockRestore();
    }
  });
});
