// What the JWT verifier (auth/jwt.ts: jose behind Parley's refusals) could get wrong, each with a token made by jose:
// every algorithm a JWKS may sign with, algorithm confusion, JWS extensions, strict base64url, the key a JWK allows,
// times, hostile JSON, and jose's own refusals.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CompactSign, exportJWK, FlattenedSign, exportSPKI, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { verifyJwt } from '../../src/auth/jwt';
import { Who } from '../helpers/whoami';
import { mcpRequest, read } from '../helpers/requests';

const RESOURCE = 'http://127.0.0.1/mcp'; // where mcpRequest posts
const SECRET = 'a-secret-of-this-server-0123456789';
const HMAC = new TextEncoder().encode(SECRET);
const SIGNERS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const privateKeys = new Map<string, CryptoKey>();
let served: JWK[] = [];
let jwks: Server;
let jwksUrl = '';

beforeAll(async () => {
  for (const alg of SIGNERS) {
    const pair = await generateKeyPair(alg, { extractable: true });
    privateKeys.set(alg, pair.privateKey);
    served.push({ ...(await exportJWK(pair.publicKey)), kid: alg, alg });
  }
  jwks = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served })),
  );
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
});
afterAll(() => new Promise((resolve) => jwks.close(resolve)));

const now = () => Math.floor(Date.now() / 1000);
const claims = (extra: JWTPayload = {}): JWTPayload => ({ sub: 'alice', aud: RESOURCE, exp: now() + 300, ...extra });
const sign = (alg: string, extra?: JWTPayload, header: Record<string, unknown> = {}) =>
  new SignJWT(claims(extra)).setProtectedHeader({ alg, kid: alg, ...header }).sign(alg.startsWith('HS') ? HMAC : privateKeys.get(alg)!);
/** A JWS over exactly these bytes (a payload JSON.stringify would not write), as an identity provider could send. */
const signRaw = (payload: string, header: Record<string, unknown>, key: CryptoKey | Uint8Array = HMAC) =>
  new CompactSign(new TextEncoder().encode(payload)).setProtectedHeader(header as { alg: string }).sign(key);
/** An HS256 JWS over a header and payload written as text: JSON that jose would not write (or would refuse to). */
async function hmacSigned(header: string, payload: string): Promise<string> {
  const input = `${Buffer.from(header).toString('base64url')}.${Buffer.from(payload).toString('base64url')}`;
  const key = await crypto.subtle.importKey('raw', HMAC, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return `${input}.${Buffer.from(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(input))).toString('base64url')}`;
}
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const server = (auth: Record<string, unknown>) =>
  createFetchHandler({ info: { name: 'who', version: '1.0.0' }, apps: [Who], auth } as never);
const withJwks = () => server({ jwksUrl, clockToleranceSec: 30 });
const withSecret = () => server({ secret: SECRET, clockToleranceSec: 30 });
const call = async (handler: ReturnType<typeof createFetchHandler>, token: string) =>
  read(await handler(mcpRequest('tools/call', { name: 'whoami', arguments: {} }, { headers: { authorization: `Bearer ${token}` } })));
const status = async (handler: ReturnType<typeof createFetchHandler>, token: string) => (await call(handler, token)).status;

describe('the algorithms', () => {
  it('verifies a token of every algorithm a JWKS may sign with, each by the key its kid names', async () => {
    const handler = withJwks();
    for (const alg of SIGNERS) expect(await status(handler, await sign(alg)), alg).toBe(200);
  });

  it('refuses alg confusion: the public key as an HMAC secret, alg none, and an algorithm the key kind does not take', async () => {
    const jwksHandler = withJwks();
    const publicKey = served.find((k) => k.kid === 'RS256')!;
    const pem = await exportSPKI((await generateKeyPair('RS256', { extractable: true })).publicKey);
    for (const secret of [JSON.stringify(publicKey), publicKey.n!, pem]) {
      const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: 'RS256' }).sign(new TextEncoder().encode(secret));
      expect(await status(jwksHandler, token)).toBe(401);
    }
    const none = `${part({ alg: 'none', kid: 'RS256' })}.${part(claims())}.`;
    expect(await status(jwksHandler, none)).toBe(401);
    expect(await status(withSecret(), `${part({ alg: 'none' })}.${part(claims())}.`)).toBe(401);
    // Asymmetric tokens against a secret; an RSA key named for an ECDSA token; PS256 with a JWK whose alg is RS256.
    expect(await status(withSecret(), await sign('RS256'))).toBe(401);
    expect(await status(jwksHandler, await sign('ES256', {}, { kid: 'RS256' }))).toBe(401);
    const rsaPair = await generateKeyPair('PS256', { extractable: true });
    served.push({ ...(await exportJWK(rsaPair.publicKey)), kid: 'rs-only', alg: 'RS256' });
    try {
      const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'PS256', kid: 'rs-only' }).sign(rsaPair.privateKey);
      expect(await status(server({ jwksUrl }), token)).toBe(401);
    } finally {
      served = served.filter((k) => k.kid !== 'rs-only');
    }
  });

  it("refuses an ECDSA token whose key is on another curve than the algorithm's", async () => {
    // ES256 names P-256 and SHA-256: a P-384 key signing SHA-256 is not ES256 (RFC 7518 §3.4).
    const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const jwk = { ...(await crypto.subtle.exportKey('jwk', pair.publicKey)), kid: 'p384' } as JWK;
    delete jwk.key_ops;
    delete jwk.ext;
    const input = `${part({ alg: 'ES256', kid: 'p384' })}.${part(claims())}`;
    const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, new TextEncoder().encode(input));
    served.push(jwk);
    try {
      expect(await status(server({ jwksUrl }), `${input}.${Buffer.from(signature).toString('base64url')}`)).toBe(401);
    } finally {
      served = served.filter((k) => k.kid !== 'p384');
    }
  });

  it('refuses an ECDSA signature of the wrong length (DER, or r||s with a byte more or less)', async () => {
    const handler = withJwks();
    const [input, signature] = splitLast(await sign('ES256'));
    const raw = Buffer.from(signature, 'base64url');
    const der = Buffer.concat([Buffer.from([0x30, 0x44, 0x02, 0x20]), raw.subarray(0, 32), Buffer.from([0x02, 0x20]), raw.subarray(32)]);
    for (const bytes of [der, Buffer.concat([raw, Buffer.from([0])]), raw.subarray(0, 63)])
      expect(await status(handler, `${input}.${bytes.toString('base64url')}`)).toBe(401);
  });

  it('refuses a token signed by an RSA key shorter than 2048 bits', async () => {
    const pair = (await crypto.subtle.generateKey(
      { name: 'RSASSA-PKCS1-v1_5', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['sign', 'verify'],
    )) as CryptoKeyPair;
    const jwk = { ...(await crypto.subtle.exportKey('jwk', pair.publicKey)), kid: 'short' } as JWK;
    delete jwk.key_ops;
    const input = `${part({ alg: 'RS256', kid: 'short' })}.${part(claims())}`;
    const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', pair.privateKey, new TextEncoder().encode(input));
    served.push(jwk);
    try {
      expect(await status(server({ jwksUrl }), `${input}.${Buffer.from(signature).toString('base64url')}`)).toBe(401);
    } finally {
      served = served.filter((k) => k.kid !== 'short');
    }
  });
});

const splitLast = (token: string): [string, string] => [token.slice(0, token.lastIndexOf('.')), token.slice(token.lastIndexOf('.') + 1)];

describe('the JWS', () => {
  it('refuses a crit header, even one jose understands (b64: true), and b64: false with or without crit', async () => {
    const handler = withSecret();
    expect(await status(handler, await signRaw(JSON.stringify(claims()), { alg: 'HS256' }))).toBe(200);
    const refused = [
      await signRaw(JSON.stringify(claims()), { alg: 'HS256', crit: ['b64'], b64: true }),
      await signRaw(JSON.stringify(claims()), { alg: 'HS256', b64: false }),
    ];
    // An unencoded payload, signed as RFC 7797 says, put in compact form (it has no '.', so it is three parts).
    const raw = JSON.stringify({ sub: 'alice', exp: now() + 300 });
    const jws = await new FlattenedSign(new TextEncoder().encode(raw))
      .setProtectedHeader({ alg: 'HS256', crit: ['b64'], b64: false })
      .sign(HMAC);
    refused.push(
      `${jws.protected}.${raw}.${jws.signature}`,
      `${jws.protected}.${part({ sub: 'alice', exp: now() + 300 })}.${jws.signature}`,
    );
    for (const token of refused) expect(await status(handler, token)).toBe(401);
  });

  it('takes only canonical base64url: no padding, no stray low bits, no other alphabet, three parts', async () => {
    const handler = withJwks();
    const token = await sign('ES256');
    expect(await status(handler, token)).toBe(200);
    const [input, signature] = splitLast(token);
    // 64 bytes are 86 characters with 4 bits to spare: set one of them, and the bytes are the same.
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(signature.at(-1)!);
    const stray = `${signature.slice(0, -1)}${'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[last ^ 1]}`;
    const [head, body] = input.split('.') as [string, string];
    const variants = [
      `${input}.${stray}`,
      `${input}.${signature}==`,
      `${head}=.${body}.${signature}`,
      `${input}.${Buffer.from(signature, 'base64url').toString('base64')}`,
      `${input}.${signature}.`,
      `${input}`,
    ];
    for (const variant of variants) expect(await status(handler, variant), variant.slice(-8)).toBe(401);
  });

  it('refuses a kid that names no key, and a JWK whose own use or key_ops forbid verifying', async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    const jwk = await exportJWK(pair.publicKey);
    served.push(
      { ...jwk, kid: 'enc', use: 'enc' },
      { ...jwk, kid: 'sign-only', key_ops: ['sign'] },
      { ...jwk, kid: 'fine', key_ops: ['verify'] },
    );
    try {
      const handler = server({ jwksUrl });
      const signed = (kid: string) => new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', kid }).sign(pair.privateKey);
      expect(await status(handler, await signed('fine'))).toBe(200);
      for (const kid of ['enc', 'sign-only', 'nobody']) expect(await status(handler, await signed(kid)), kid).toBe(401);
    } finally {
      served = served.filter((k) => !['enc', 'sign-only', 'fine'].includes(k.kid!));
    }
    // A token that names no key, against a JWKS where only one key may verify: that one, not "several keys match".
    const all = served;
    const mine = await generateKeyPair('ES256', { extractable: true });
    served = [
      { ...jwk, use: 'enc' },
      { ...jwk, key_ops: ['sign'] },
      { ...(await exportJWK(mine.publicKey)), key_ops: ['verify'] },
    ];
    try {
      const unnamed = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256' }).sign(mine.privateKey);
      expect(await status(server({ jwksUrl }), unnamed)).toBe(200);
    } finally {
      served = all;
    }
  });
});

describe('the claims', () => {
  it('refuses an expired token and one not valid yet, past the clock tolerance only', async () => {
    const handler = withJwks(); // 30 s of tolerance
    expect(await status(handler, await sign('ES256', { exp: now() - 20 }))).toBe(200);
    expect(await status(handler, await sign('ES256', { exp: now() - 40 }))).toBe(401);
    expect(await status(handler, await sign('ES256', { nbf: now() + 20 }))).toBe(200);
    expect(await status(handler, await sign('ES256', { nbf: now() + 40 }))).toBe(401);
    for (const bad of [{ exp: String(now() + 300) }, { nbf: 'soon' }, { iat: 'today' }, { exp: undefined }])
      expect(await status(handler, await sign('ES256', bad as JWTPayload)), JSON.stringify(bad)).toBe(401);
  });

  it('refuses a payload or header that is not a JSON object, or not UTF-8', async () => {
    const handler = withSecret();
    for (const payload of ['[1]', '"alice"', 'null', '12', '{"sub":"alice",', `${JSON.stringify(claims())} x`])
      expect(await status(handler, await signRaw(payload, { alg: 'HS256' })), payload).toBe(401);
    // Latin-1's é inside a string: valid JSON once decoded loosely (as U+FFFD), but not UTF-8.
    const text = JSON.stringify(claims({ name: 'x' }));
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode(text.slice(0, text.indexOf('"x"') + 1)),
      0xe9,
      ...new TextEncoder().encode('"}'),
    ]);
    expect(await status(handler, await new CompactSign(latin1).setProtectedHeader({ alg: 'HS256' }).sign(HMAC))).toBe(401);
  });

  it('reads __proto__ in a header or payload as a plain name: it lends no alg, sub or scope, and pollutes nothing', async () => {
    const handler = withSecret();
    const exp = now() + 300;
    const header = JSON.parse('{"__proto__":{"alg":"HS256"}}');
    const inherited = `${part(header)}.${part(claims())}`;
    const mac = await crypto.subtle.sign(
      'HMAC',
      await crypto.subtle.importKey('raw', HMAC, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
      new TextEncoder().encode(inherited),
    );
    expect(await status(handler, `${inherited}.${Buffer.from(mac).toString('base64url')}`)).toBe(401);
    const noSubject = await signRaw(`{"exp":${exp},"__proto__":{"sub":"admin"}}`, { alg: 'HS256' });
    expect(await status(handler, noSubject)).toBe(401);
    const scoped = await signRaw(`{"sub":"alice","exp":${exp},"__proto__":{"scope":"admin","sub":"root"}}`, { alg: 'HS256' });
    const { status: code, body } = await call(handler, scoped);
    expect(code).toBe(200);
    expect(body.result.structuredContent).toEqual({ sub: 'alice', clientId: null, scopes: [] });
    expect(({} as Record<string, unknown>).sub).toBeUndefined();
    expect(({} as Record<string, unknown>).scope).toBeUndefined();
  });

  it('refuses a 100,000-deep payload or header (JSON from outside nests 128 levels at most), and serves the next token', async () => {
    const handler = withSecret();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const token = await signRaw(`{"sub":"alice","exp":${now() + 300},"deep":${deep}}`, { alg: 'HS256' });
    expect(await status(handler, token)).toBe(401);
    expect(await status(handler, await hmacSigned(`{"alg":"HS256","x":${deep}}`, JSON.stringify(claims())))).toBe(401);
    expect(await status(handler, await sign('HS256'))).toBe(200);
  });
});

describe("jose's refusals", () => {
  it('answer 401 with the challenge every refused token gets: a forged signature, another issuer, an expired token', async () => {
    const issuer = 'https://idp.example';
    const handler = server({ jwksUrl, issuer });
    const good = await sign('ES256', { iss: issuer });
    expect(await status(handler, good)).toBe(200);
    // Each passes Parley's own refusals (the header, the JSON, exp present): only jose's checks find them wrong.
    const forged = `${splitLast(await sign('ES256', { iss: issuer, sub: 'mallory' }))[0]}.${splitLast(good)[1]}`;
    for (const token of [
      forged,
      await sign('ES256', { iss: 'https://other.example' }),
      await sign('ES256', { iss: issuer, exp: now() - 5 }),
    ]) {
      const response = await handler(
        mcpRequest('tools/call', { name: 'whoami', arguments: {} }, { headers: { authorization: `Bearer ${token}` } }),
      );
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer error="invalid_token", error_description="The token could not be verified", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"',
      );
      expect(await response.json()).toEqual({ error: 'invalid_token', error_description: 'The token could not be verified' });
    }
  });
});

describe('verifyJwt', () => {
  const key = () => crypto.subtle.importKey('raw', HMAC, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const hs = (extra: JWTPayload) => new SignJWT({ exp: now() + 60, ...extra }).setProtectedHeader({ alg: 'HS256' }).sign(HMAC);

  it('checks iss against one issuer or a list, and aud exactly, as a string or in a list', async () => {
    const checks = { algorithms: ['HS256'], issuer: ['https://a.example', 'https://b.example'], audience: 'inbox' };
    for (const extra of [
      { iss: 'https://b.example', aud: 'inbox' },
      { iss: 'https://a.example', aud: ['other', 'inbox'] },
    ])
      await expect(verifyJwt(await hs(extra), key, checks)).resolves.toMatchObject(extra);
    for (const extra of [
      { iss: 'https://c.example', aud: 'inbox' },
      { aud: 'inbox' },
      { iss: 'https://a.example', aud: 'inbox/' },
      { iss: 'https://a.example', aud: ['other'] },
      { iss: 'https://a.example' },
    ])
      await expect(verifyJwt(await hs(extra), key, checks), JSON.stringify(extra)).rejects.toThrow();
  });

  it('refuses a header or payload that is JSON but not an object, before any key is asked for', async () => {
    const noKey = () => Promise.reject(new Error('no key was to be asked for'));
    for (const [head, body] of [
      [part({ alg: 'HS256' }), part([{ exp: now() + 60 }])],
      [part(['HS256']), part({ exp: now() + 60 })],
    ])
      await expect(verifyJwt(`${head}.${body}.AA`, noKey, { algorithms: ['HS256'] })).rejects.toThrow('not a JSON object');
  });

  it("leaves the signature and the claims' times to jose, whose refusal (with its code) comes out", async () => {
    const other = new TextEncoder().encode('another-secret-of-another-server-0123');
    const forged = await new SignJWT({ exp: now() + 60 }).setProtectedHeader({ alg: 'HS256' }).sign(other);
    await expect(verifyJwt(forged, key, { algorithms: ['HS256'] })).rejects.toMatchObject({
      code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    });
    const expired = await hs({ exp: now() - 10 });
    await expect(verifyJwt(expired, key, { algorithms: ['HS256'] })).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
    await expect(verifyJwt(await hs({ nbf: now() + 60 }), key, { algorithms: ['HS256'] })).rejects.toMatchObject({
      code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
    });
  });

  it('refuses a key that is not for the algorithm, whoever looked it up', async () => {
    const hs384 = () => crypto.subtle.importKey('raw', HMAC, { name: 'HMAC', hash: 'SHA-384' }, false, ['verify']);
    await expect(verifyJwt(await hs({}), hs384, { algorithms: ['HS256'] })).rejects.toThrow('not a key for HS256');
    await expect(verifyJwt(await hs({}), key, { algorithms: ['RS256'] })).rejects.toThrow('algorithm');
  });
});
