// Parley as an OAuth resource server: Protected Resource Metadata (RFC 9728) where clients look for it, and the bearer
// challenge on every HTTP path, pointing to it with the scopes to ask for.
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { Who } from '../helpers/whoami';
import { legacyPost, request as rpc } from '../helpers/legacy';
import { mcpRequest } from '../helpers/requests';

const ISSUER = 'https://idp.example';
const RESOURCE = 'http://127.0.0.1/mcp';
const METADATA = 'http://127.0.0.1/.well-known/oauth-protected-resource/mcp';
let jwks: Server;
let jwksUrl = '';
let signing: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  signing = pair.privateKey;
  const keys = [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }];
  jwks = createServer((_q, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys })));
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
});
afterAll(() => new Promise((resolve) => jwks.close(resolve)));

const sign = (claims: JWTPayload) =>
  new SignJWT({ iss: ISSUER, aud: RESOURCE, ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setExpirationTime('5m')
    .sign(signing);

const desk = (auth: Record<string, unknown> = {}) =>
  createFetchHandler({
    info: { name: 'desk', version: '1.0.0', title: 'Help desk' },
    apps: [Who],
    auth: { jwksUrl, issuer: ISSUER, scopesSupported: ['tickets:read', 'tickets:write', 'offline_access'], ...auth },
  } as never);

const get = (path: string, init: RequestInit = {}) => new Request(`http://127.0.0.1${path}`, init);

describe('Protected Resource Metadata', () => {
  it('is served at the path-inserted and the root well-known URLs, public, cacheable, without offline_access', async () => {
    const handler = desk({ resourceDocumentation: 'https://desk.example/docs' });
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      // A browser-based client on another origin reads it too: it is not behind the Origin check.
      const response = await handler(get(path, { headers: { origin: 'https://inspector.example' } }));
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
      expect(await response.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: [ISSUER],
        scopes_supported: ['tickets:read', 'tickets:write'],
        bearer_methods_supported: ['header'],
        resource_name: 'Help desk',
        resource_documentation: 'https://desk.example/docs',
      });
    }
  });

  it('answers HEAD without a body, a preflight with 204, and any other method with 405 and Allow', async () => {
    const handler = desk();
    const path = '/.well-known/oauth-protected-resource/mcp';
    const head = await handler(get(path, { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const preflight = await handler(
      get(path, { method: 'OPTIONS', headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' } }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
    const post = await handler(get(path, { method: 'POST', body: '{}' }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('follows auth.resource and auth.authorizationServers, and is absent for a bare secret or no auth', async () => {
    const handler = desk({ resource: 'https://desk.example/api/mcp', authorizationServers: ['https://as.example'] });
    const response = await handler(get('/.well-known/oauth-protected-resource/api/mcp'));
    expect(await response.json()).toMatchObject({
      resource: 'https://desk.example/api/mcp',
      authorization_servers: ['https://as.example'],
    });
    expect((await handler(get('/.well-known/oauth-protected-resource/other'))).status).toBe(404);
    const secret = createFetchHandler({ info: { name: 'd', version: '1' }, apps: [Who], auth: { secret: 's3cret' } });
    expect((await secret(get('/.well-known/oauth-protected-resource'))).status).toBe(404);
    const open = createFetchHandler({ info: { name: 'd', version: '1' }, apps: [Who] });
    expect((await open(get('/.well-known/oauth-protected-resource/mcp'))).status).toBe(404);
  });
});

describe('mounted in an app (a Next.js or Vercel route file)', () => {
  it('serves the metadata from the same handler at the well-known route, for the resource it is mounted at', async () => {
    const handler = desk({ resource: 'https://app.example/api/mcp' });
    const metadata = await handler(new Request('https://app.example/.well-known/oauth-protected-resource/api/mcp'), { mounted: true });
    expect(await metadata.json()).toMatchObject({ resource: 'https://app.example/api/mcp' });
    const call = await handler(mcpRequest('tools/list', {}, { url: 'https://app.example/api/mcp' }), { mounted: true });
    expect(call.status).toBe(401);
    expect(call.headers.get('www-authenticate')).toContain(
      'resource_metadata="https://app.example/.well-known/oauth-protected-resource/api/mcp"',
    );
  });
});

describe('the bearer challenge', () => {
  const call = (headers: Record<string, string> = {}) => mcpRequest('tools/call', { name: 'whoami', arguments: {} }, { headers });

  it('points a client without a token to the metadata with the scopes to ask for, and names no error', async () => {
    const response = await desk()(call());
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${METADATA}", scope="tickets:read tickets:write"`);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('names invalid_token when a token was sent and refused', async () => {
    const response = await desk()(call({ authorization: `Bearer ${await sign({ sub: 'a', aud: 'https://other.example' })}` }));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="The token was issued for another resource", resource_metadata="${METADATA}", scope="tickets:read tickets:write"`,
    );
  });

  it('is sent on every HTTP path: an older client, its GET stream and DELETE, and subscriptions/listen', async () => {
    const handler = desk();
    const session = { 'mcp-session-id': 'a-session-that-does-not-matter', accept: 'text/event-stream' };
    const requests = [
      legacyPost(rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } })),
      legacyPost(rpc('tools/list'), 'a-session-that-does-not-matter'),
      get('/mcp', { headers: session }),
      get('/mcp', { method: 'DELETE', headers: session }),
      mcpRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }),
    ];
    for (const request of requests) {
      const response = await handler(request);
      expect(response.status, `${request.method} ${request.headers.get('mcp-session-id') ?? ''}`).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain(`resource_metadata="${METADATA}"`);
    }
  });

  it('answers 403 insufficient_scope naming every required scope; scopeSatisfies grants through a hierarchy', async () => {
    const handler = desk({ requiredScopes: ['tickets:read', 'tickets:write'] });
    const missing = await handler(call({ authorization: `Bearer ${await sign({ sub: 'a', scope: 'tickets:read' })}` }));
    expect(missing.status).toBe(403);
    expect(missing.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", error_description="The token lacks a scope this server requires", resource_metadata="${METADATA}", scope="tickets:read tickets:write"`,
    );
    expect((await handler(call({ authorization: `Bearer ${await sign({ sub: 'a', scope: 'tickets:read tickets:write' })}` }))).status).toBe(
      200,
    );
    const admin = desk({
      requiredScopes: ['tickets:write'],
      scopeSatisfies: (granted: string, required: string) => granted === 'tickets:admin' && required.startsWith('tickets:'),
    });
    expect((await admin(call({ authorization: `Bearer ${await sign({ sub: 'a', scope: 'tickets:admin' })}` }))).status).toBe(200);
  });

  it('has no resource_metadata for a bare secret, which has no authorization server to name', async () => {
    const handler = createFetchHandler({ info: { name: 'd', version: '1' }, apps: [Who], auth: { secret: 's3cret' } });
    const response = await handler(call());
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });
});
