// Every read from the identity provider is capped as it streams in: an IdP on loopback answering its metadata, JWKS
// and introspection with a megabyte (declared, or streamed with no length) gets the caller 503 and a log line naming
// the limit, never a server that reads it all and keeps it.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { introspection } from 'parley-mcp/introspection';
import { mcpRequest, read } from '../helpers/requests';
import { Who } from '../helpers/whoami';

const RESOURCE = 'http://127.0.0.1/mcp';
const PADDING = 'x'.repeat(1024 * 1024);
let idp: Server;
let issuer = '';
let jwk: JWK;
let signing: CryptoKey;
/** The answers padded to a megabyte, by path. */
const padded = new Set<string>();

/** Sends `body`, padded when asked: with its Content-Length, or (`streamed`) in chunks with none. */
function answer(response: ServerResponse, path: string, body: Record<string, unknown>, streamed: boolean): void {
  const text = JSON.stringify(padded.has(path) ? { ...body, padding: PADDING } : body);
  if (!streamed) return void response.writeHead(200, { 'content-type': 'application/json' }).end(text);
  response.writeHead(200, { 'content-type': 'application/json' });
  for (let at = 0; at < text.length; at += 64 * 1024) response.write(text.slice(at, at + 64 * 1024));
  response.end();
}

/** An answer that never ends: only a reader that stops at its cap gets past it (before the 5 s timeout aborts it). */
function endless(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{"active":true,"padding":"');
  const more = () => {
    while (!response.destroyed && response.write('x'.repeat(16 * 1024)));
    if (!response.destroyed) response.once('drain', more);
  };
  more();
}

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  signing = pair.privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  idp = createServer((request, response) => {
    const path = new URL(request.url ?? '/', issuer).pathname;
    if (path === '/.well-known/openid-configuration')
      return answer(response, path, { issuer, jwks_uri: `${issuer}/jwks`, token_endpoint: `${issuer}/token` }, false);
    if (path === '/jwks') return answer(response, path, { keys: [jwk] }, true);
    if (path === '/introspect') return answer(response, path, { active: true, sub: 'ines', aud: RESOURCE }, true);
    if (path === '/endless') return endless(response);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => idp.close(resolve)));

const token = () =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setSubject('ines')
    .setIssuer(issuer)
    .setAudience(RESOURCE)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(signing);

/** A fresh server (nothing cached) trusting the IdP, and the error lines it logs. */
function server(auth: Record<string, unknown> = {}) {
  const errors: string[] = [];
  const logger = { debug() {}, info() {}, warn() {}, error: (line: string) => void errors.push(line) };
  const handler = createFetchHandler({ info: { name: 'desk', version: '1.0.0' }, apps: [Who], logger, auth: { issuer, ...auth } } as never);
  return { handler, errors };
}

const whoami = async (handler: ReturnType<typeof createFetchHandler>, bearer: string) =>
  read(await handler(mcpRequest('tools/call', { name: 'whoami', arguments: {} }, { headers: { authorization: `Bearer ${bearer}` } })));
const mirror = (handler: ReturnType<typeof createFetchHandler>) =>
  handler(new Request('http://127.0.0.1/.well-known/oauth-authorization-server'));

describe('reads from the identity provider', () => {
  it('take answers under the limit: the metadata mirror, a JWKS-verified token, an introspected one', async () => {
    padded.clear();
    const { handler } = server();
    const copy = await mirror(handler);
    expect(copy.status).toBe(200);
    expect(await copy.json()).toMatchObject({ issuer, jwks_uri: `${issuer}/jwks` });
    expect((await whoami(handler, await token())).status).toBe(200);
    const opaque = server({ verify: introspection({ url: `${issuer}/introspect`, clientId: 'desk', clientSecret: 's' }) });
    expect((await whoami(opaque.handler, 'an-opaque-token')).status).toBe(200);
  });

  it('answer 503 with a log line naming the limit when the metadata (with its length) is a megabyte', async () => {
    padded.clear();
    padded.add('/.well-known/openid-configuration');
    const { handler, errors } = server();
    const copy = await mirror(handler);
    expect(copy.status).toBe(503);
    expect(copy.headers.get('retry-after')).toBe('5');
    expect((await whoami(handler, await token())).status).toBe(503);
    expect(errors.join('\n')).toContain('larger than the 256 KB limit');
  });

  it('answer 503 with a log line when the JWKS or the introspection answer streams a megabyte with no length', async () => {
    padded.clear();
    padded.add('/jwks');
    padded.add('/introspect');
    const { handler, errors } = server();
    expect((await whoami(handler, await token())).status).toBe(503);
    expect(errors.join('\n')).toMatch(/The JWKS at .* larger than the 256 KB limit/);
    const opaque = server({ verify: introspection({ url: `${issuer}/introspect`, clientId: 'desk', clientSecret: 's' }) });
    expect((await whoami(opaque.handler, 'an-opaque-token')).status).toBe(503);
    expect(opaque.errors.join('\n')).toMatch(/introspection endpoint .* larger than the 256 KB limit/);
  });

  it('stop reading an answer that never ends at the limit, and say so', async () => {
    const endlessly = server({ verify: introspection({ url: `${issuer}/endless`, clientId: 'desk', clientSecret: 's' }) });
    expect((await whoami(endlessly.handler, 'an-opaque-token')).status).toBe(503);
    expect(endlessly.errors.join('\n')).toMatch(/introspection endpoint .* larger than the 256 KB limit/);
  });
});
