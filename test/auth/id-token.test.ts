// The inbox's sign-in checks the provider's ID token with verifyJwt (auth/jwt.ts): an identity provider on loopback
// (its metadata, JWKS and token endpoint) answers the code with ID tokens jose signs, good and bad.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersonSignIn } from '../../src/auth/oidc-sign-in';

const CLIENT = 'inbox-client';
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
let idp: Server;
let issuer = '';
let signing: CryptoKey;
let other: CryptoKey;
let idToken = '';

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  signing = pair.privateKey;
  other = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  idp = createServer((request, response) => {
    const json = (body: unknown) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (request.url === '/.well-known/openid-configuration')
      return json({ issuer, jwks_uri: `${issuer}/jwks`, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token` });
    if (request.url === '/jwks') return json({ keys: [jwk] });
    if (request.url === '/token') return json({ id_token: idToken, token_type: 'Bearer' });
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => idp.close(resolve)));

const FLOW = { verifier: 'v'.repeat(43), nonce: 'the-nonce' };
const token = (claims: JWTPayload, key = signing, alg = 'RS256') =>
  new SignJWT({ iss: issuer, aud: CLIENT, sub: 'alice', nonce: FLOW.nonce, exp: Math.floor(Date.now() / 1000) + 300, ...claims })
    .setProtectedHeader({ alg, kid: 'k1' })
    .sign(key);
const finish = async (id: string) => {
  idToken = id;
  return createPersonSignIn({ clientId: CLIENT }, issuer, quiet).finish('code', FLOW, 'http://127.0.0.1/_frontmcp/sign-in/callback');
};

describe("the inbox's ID token", () => {
  it("takes the provider's token for this client, with its nonce, as principal:<iss>#<sub>", async () => {
    expect((await finish(await token({}))).subject).toBe(`principal:${issuer}#alice`);
    expect((await finish(await token({ aud: ['another-client', CLIENT] }))).subject).toBe(`principal:${issuer}#alice`);
    // With the verified token's claims, for what the inbox reads of the person (their email, their groups).
    expect((await finish(await token({ groups: ['finance'] }))).claims).toMatchObject({ sub: 'alice', groups: ['finance'] });
  });

  it('refuses one for another client, from another issuer, signed by another key or with HS256, expired, or without sub', async () => {
    const refused = [
      await token({ aud: 'another-client' }),
      await token({ aud: `${CLIENT}/` }),
      await token({ iss: 'https://other.example' }),
      await token({}, other),
      await token({}, new TextEncoder().encode(JSON.stringify({ kid: 'k1' })) as never, 'HS256'),
      await token({ exp: Math.floor(Date.now() / 1000) - 5 }),
      await token({ sub: undefined }),
      await token({ nonce: 'another-sign-in' }),
    ];
    for (const id of refused) await expect(finish(id)).rejects.toMatchObject({ name: 'SignInRefusedError' });
  });
});
