// verifyJwt on the Workers' own WebCrypto (workerd): every algorithm Parley accepts verifies a jose-made token, and a
// token signed by another key does not.
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { type RunningWorker, startWorker } from '../helpers/workerd';

let running: RunningWorker;
beforeAll(async () => {
  const { code } = await bundleWorker('test/edge/entries/jwt-worker.ts');
  running = startWorker(code);
});
afterAll(() => running.dispose());

const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const verify = (token: string, jwk: object) =>
  running.send(new Request('https://jwt.example/', { method: 'POST', body: JSON.stringify({ token, jwk }) }));
const sign = (alg: string, key: CryptoKey | Uint8Array) =>
  new SignJWT({ sub: 'alice' }).setProtectedHeader({ alg }).setExpirationTime('5m').sign(key);

describe('verifyJwt in workerd', () => {
  it('verifies every asymmetric algorithm, and refuses a token signed by another key of the same kind', async () => {
    for (const alg of ASYMMETRIC) {
      const pair = await generateKeyPair(alg, { extractable: true });
      const jwk = await exportJWK(pair.publicKey);
      const good = await verify(await sign(alg, pair.privateKey), jwk);
      expect(good.status, `${alg}: ${good.status === 200 ? '' : await good.clone().text()}`).toBe(200);
      expect(await good.json()).toMatchObject({ sub: 'alice' });
      const stranger = (await generateKeyPair(alg)).privateKey;
      expect((await verify(await sign(alg, stranger), jwk)).status, alg).toBe(401);
    }
  });

  it('verifies HS256 with the secret, and refuses another secret', async () => {
    const secret = new TextEncoder().encode('a-secret-of-this-server-0123456789');
    const jwk = { kty: 'oct', k: Buffer.from(secret).toString('base64url') };
    expect((await verify(await sign('HS256', secret), jwk)).status).toBe(200);
    expect((await verify(await sign('HS256', new TextEncoder().encode('another-secret-entirely')), jwk)).status).toBe(401);
  });
});
