// auth: { jwksUrl }: bearer tokens verified against a real JWKS served on loopback, with the keys an IdP would use.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { Who } from '../helpers/whoami';
import { mcpRequest, read } from '../helpers/requests';

const ISSUER = 'https://idp.example';
let jwks: Server;
let served: JWK[] = [];
let fetches = 0;
let url = '';
let signing: CryptoKey;
let other: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  signing = pair.privateKey;
  other = (await generateKeyPair('ES256')).privateKey;
  served = [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }];
  jwks = createServer((_request, response) => {
    fetches++;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`;
});
afterAll(() => new Promise((resolve) => jwks.close(resolve)));

// The resource the requests reach (mcpRequest posts to http://127.0.0.1/mcp): the audience checked by default.
const RESOURCE = 'http://127.0.0.1/mcp';
const token = (key: CryptoKey | Uint8Array, header: { alg: string; kid?: string }, sub = 'alice') =>
  new SignJWT({})
    .setProtectedHeader(header)
    .setSubject(sub)
    .setIssuer(ISSUER)
    .setAudience(RESOURCE)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);

const call = async (handler: ReturnType<typeof createFetchHandler>, bearer: string) =>
  read(await handler(mcpRequest('tools/call', { name: 'whoami', arguments: {} }, { headers: { authorization: `Bearer ${bearer}` } })));

describe('auth: { jwksUrl }', () => {
  it('takes a token signed by the JWKS key the token names, and fetches the JWKS once for many calls', async () => {
    const handler = createFetchHandler({ info: { name: 'who', version: '1.0.0' }, apps: [Who], auth: { jwksUrl: url, issuer: ISSUER } });
    const before = fetches;
    for (const sub of ['alice', 'bob', 'carol']) {
      const { status, body } = await call(handler, await token(signing, { alg: 'ES256', kid: 'k1' }, sub));
      expect(status).toBe(200);
      expect(body.result.structuredContent).toMatchObject({ sub });
    }
    expect(fetches - before).toBe(1);
  });

  it('refuses, with 401 and never 500: another key, an unknown kid, an HMAC token keyed with the public key, a wrong issuer', async () => {
    const handler = createFetchHandler({ info: { name: 'who', version: '1.0.0' }, apps: [Who], auth: { jwksUrl: url, issuer: ISSUER } });
    const publicJwkAsSecret = new TextEncoder().encode(JSON.stringify(served[0]));
    const refused = [
      await token(other, { alg: 'ES256', kid: 'k1' }),
      await token(signing, { alg: 'ES256', kid: 'nobody' }),
      await token(publicJwkAsSecret, { alg: 'HS256', kid: 'k1' }),
      await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setSubject('alice')
        .setIssuer('https://evil.example')
        .setAudience(RESOURCE)
        .setExpirationTime('5m')
        .sign(signing),
      'not-a-jwt',
    ];
    for (const bearer of refused) {
      const response = await handler(
        mcpRequest('tools/call', { name: 'whoami', arguments: {} }, { headers: { authorization: `Bearer ${bearer}` } }),
      );
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'invalid_token' });
    }
  });

  it('answers 503 (not 401) while the JWKS cannot be fetched, logs why, says nothing of the URL, and recovers', async () => {
    const errors: string[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (line: string) => errors.push(line) };
    let serving = false;
    const down = createServer((_request, response) =>
      serving
        ? response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served }))
        : response.writeHead(502).end(),
    );
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const port = (down.address() as AddressInfo).port;
    try {
      const handler = createFetchHandler({
        info: { name: 'who', version: '1.0.0' },
        apps: [Who],
        logger,
        auth: { jwksUrl: `http://127.0.0.1:${port}/jwks.json` },
      });
      const bearer = await token(signing, { alg: 'ES256', kid: 'k1' });
      const response = await handler(
        mcpRequest('tools/call', { name: 'whoami', arguments: {} }, { headers: { authorization: `Bearer ${bearer}` } }),
      );
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBeTruthy();
      expect(await response.text()).not.toContain(`127.0.0.1:${port}`);
      expect(errors.join('\n')).toContain('The JWKS');
      serving = true; // the IdP is back: the next request fetches the keys again
      expect((await call(handler, bearer)).status).toBe(200);
    } finally {
      await new Promise((resolve) => down.close(resolve));
    }
  });

  it('does not fetch the JWKS again for every unknown kid: a caller cannot make the server hammer its IdP', async () => {
    const handler = createFetchHandler({ info: { name: 'who', version: '1.0.0' }, apps: [Who], auth: { jwksUrl: url } });
    expect((await call(handler, await token(signing, { alg: 'ES256', kid: 'k1' }))).status).toBe(200);
    const before = fetches;
    for (let i = 0; i < 5; i++) expect((await call(handler, await token(signing, { alg: 'ES256', kid: `unknown-${i}` }))).status).toBe(401);
    expect(fetches).toBe(before); // fetched again for an unknown kid at most every 30 s
  });
});
