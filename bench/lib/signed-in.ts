// Row 9's signed-in caller: an identity provider as little as the row needs (an ES256 key's JWKS on loopback and one
// access token signed with it, for the signed-in server's issuer and audience, valid for an hour), and its call.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { BENCH_AUDIENCE, BENCH_ISSUER } from '../servers/parley-app';
import { SIMPLE_ARGS, SIMPLE_TEXT, SIMPLE_TOOL } from '../servers/fixture';
import type { Scenario } from './load';
import { isTextResult, modernRequest, resultOf } from './wire';

/** The simple call with a bearer token, the same one on every request, as a signed-in client sends it. */
export const authenticatedCall = (token: string): Scenario => {
  const request = modernRequest('tools/call', { name: SIMPLE_TOOL, arguments: SIMPLE_ARGS });
  request.headers.authorization = `Bearer ${token}`;
  return { steps: [{ request, check: (body) => isTextResult(resultOf(body), SIMPLE_TEXT) }] };
};

/** The JWKS on loopback, and a token for `bench-user`; `tokenFor` signs one for another subject (row 11's 100 callers). */
export async function startJwks(): Promise<{ url: string; token: string; tokenFor(sub: string): Promise<string>; close(): Promise<void> }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const body = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256', use: 'sig' }] });
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const tokenFor = (sub: string) =>
    new SignJWT({ scope: 'bench' })
      .setProtectedHeader({ alg: 'ES256', kid: 'bench' })
      .setIssuer(BENCH_ISSUER)
      .setAudience(BENCH_AUDIENCE)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`,
    token: await tokenFor('bench-user'),
    tokenFor,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
