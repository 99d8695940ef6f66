// parley-mcp/node signs requestState with node:crypto: its text must be WebCrypto's, and it must refuse what WebCrypto refuses.
import { describe, expect, it } from 'vitest';
import 'parley-mcp/node'; // registers the native HMAC
import { createHmacKey, hkdfBytes, hmac, importHmacKey, sameSignature, toBase64Url } from '../../src/crypto';
import { createStateKeys } from '../../src/elicitation/state-keys';
import { openState, sealState } from '../../src/elicitation/request-state';

const webCrypto = async (secret: string, data: string) => {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return Buffer.from(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(data))).toString('base64url');
};

describe('the HMAC parley-mcp/node registers', () => {
  it('gives the same text as WebCrypto, for empty, short, long and non-ASCII data, again and again on one key', async () => {
    for (const secret of ['secret-of-this-test', 'k'.repeat(64), 'a secret longer than one SHA-256 block, hashed first: '.repeat(3)]) {
      const key = await createHmacKey(secret);
      // Long data grows the key's buffer; shorter data after it must not see what the longer left behind.
      for (const data of ['', 'x', 'a.b.c', 'é東🎉'.repeat(50), 'y'.repeat(10_000), 'x', '\ud800 lone surrogate'])
        expect(await key.sign(data), `${secret.length}-byte secret, ${data.length} characters`).toBe(await webCrypto(secret, data));
    }
  });

  it('refuses a changed signature, a short one, and one under another secret', async () => {
    const key = await createHmacKey('secret-of-this-test');
    const signature = await key.sign('payload');
    expect(sameSignature(await key.sign('payload'), signature)).toBe(true);
    expect(sameSignature(await key.sign('payloaD'), signature)).toBe(false);
    expect(sameSignature(await key.sign('payload'), `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(sameSignature(await key.sign('payload'), signature.slice(0, 16))).toBe(false);
    expect(sameSignature(await key.sign('payload'), await webCrypto('another-secret', 'payload'))).toBe(false);
  });

  it('opens a signed requestState that WebCrypto signed under the same secret (a Worker and a Node instance share rounds)', async () => {
    const secret = 'shared-vault-secret';
    const keys = await createStateKeys([secret]);
    // The same derivation on WebCrypto alone: HKDF-SHA256 of the secret for signing, then WebCrypto's HMAC.
    const signing = await importHmacKey(await hkdfBytes(secret, 'parley requestState signing v1'));
    const web = { ...keys.primary, hmac: { sign: async (data: string) => toBase64Url(await hmac(signing, data)) } };
    const webKeys = { primary: web, byId: new Map([[web.id, web]]) };
    const binding = { caller: 'anonymous', method: 'tools/call', name: 'close_ticket', digest: 'json:{"id":"T-1"}' };
    const state = await sealState(webKeys, 'signed', binding, { answers: { 'elicitation-1': { action: 'accept' } } }, 60_000);
    expect(await openState(keys, state, binding)).toEqual({ ok: true, answers: { 'elicitation-1': { action: 'accept' } } });
    expect((await sealState(keys, 'signed', binding, { answers: {} }, 60_000)).split('.').at(-1)).not.toBe(state.split('.').at(-1));
    // A signature that is not 43 characters of base64url was never issued: malformed, not merely unverified.
    const cut = state.lastIndexOf('.');
    const [body, signature] = [state.slice(0, cut), state.slice(cut + 1)];
    for (const bad of [`${body}.${signature}A`, `${body}.${signature.slice(1)}`, `${body}.${signature.slice(1)}+`, body, `.${signature}`])
      expect(await openState(keys, bad, binding)).toMatchObject({ ok: false, reason: 'malformed' });
  });
});
