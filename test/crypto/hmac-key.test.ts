// parley/node signs requestState with node:crypto: its bytes must be WebCrypto's, and it must refuse what WebCrypto refuses.
import { describe, expect, it } from 'vitest';
import 'parley/node'; // registers the native HMAC
import { createHmacKey } from '../../src/crypto';
import { openState, sealState } from '../../src/elicitation/request-state';

const webCrypto = async (secret: string, data: string) => {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(data)));
};

describe('the HMAC parley/node registers', () => {
  it('gives the same bytes as WebCrypto, for empty, short, long and non-ASCII data', async () => {
    const key = await createHmacKey('secret-of-this-test');
    for (const data of ['', 'x', 'a.b.c', 'é東🎉'.repeat(50), 'y'.repeat(10_000)]) expect(await key.sign(data)).toEqual(await webCrypto('secret-of-this-test', data));
  });

  it('verifies its own signature and refuses a changed one, a short one, and one under another secret', async () => {
    const key = await createHmacKey('secret-of-this-test');
    const signature = await key.sign('payload');
    expect(await key.verify(signature, 'payload')).toBe(true);
    expect(await key.verify(signature, 'payloaD')).toBe(false);
    const flipped = signature.slice();
    flipped[0]! ^= 1;
    expect(await key.verify(flipped, 'payload')).toBe(false);
    expect(await key.verify(signature.slice(0, 16), 'payload')).toBe(false);
    expect(await key.verify(await webCrypto('another-secret', 'payload'), 'payload')).toBe(false);
  });

  it('opens a requestState sealed by WebCrypto under the same secret (a Worker and a Node instance share rounds)', async () => {
    const secret = 'shared-vault-secret';
    const raw = new TextEncoder().encode(secret);
    const webKey = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    const webCryptoKey = {
      sign: async (d: string) => new Uint8Array(await crypto.subtle.sign('HMAC', webKey, new TextEncoder().encode(d))),
      verify: (s: Uint8Array<ArrayBuffer>, d: string) => crypto.subtle.verify('HMAC', webKey, s, new TextEncoder().encode(d)),
    };
    const binding = { caller: 'anonymous', method: 'tools/call', name: 'close_ticket', digest: 'json:{"id":"T-1"}' };
    const state = await sealState(webCryptoKey, binding, { 'elicitation-1': { action: 'accept' } }, 60_000);
    expect(await openState(await createHmacKey(secret), state, binding)).toEqual({ ok: true, answers: { 'elicitation-1': { action: 'accept' } } });
    expect(await openState(await createHmacKey('other'), state, binding)).toMatchObject({ ok: false, reason: 'bad signature' });
  });
});
