// AES-256-GCM per owner: a round trip, and nothing readable with another secret, another owner or a changed record.
import { describe, expect, it } from 'vitest';
import { decryptJson, encryptJson, fromBase64Url, ownerKey, toBase64Url } from '../../src/crypto';
import { sealRecord } from '../../src/elicitation/sealed-record';

const value = { message: 'Close ticket T-1?', schema: { type: 'object', properties: { confirm: { type: 'boolean' } } }, n: [1, 2] };

describe('encryptJson / decryptJson', () => {
  it('round-trips a JSON value, sealed as { alg: A256GCM, iv, tag, data } in base64url', async () => {
    const sealed = await encryptJson('secret-1', 'session-a', value);
    expect(Object.keys(sealed).sort()).toEqual(['alg', 'data', 'iv', 'tag']);
    expect(sealed.alg).toBe('A256GCM');
    for (const part of [sealed.iv, sealed.tag, sealed.data]) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(fromBase64Url(sealed.iv)).toHaveLength(12);
    expect(fromBase64Url(sealed.tag)).toHaveLength(16);
    expect(JSON.stringify(sealed)).not.toContain('Close ticket');
    expect(await decryptJson('secret-1', 'session-a', sealed)).toEqual(value);
  });

  it('seals the same value differently each time (a fresh IV)', async () => {
    const [one, two] = [await encryptJson('s', 'o', value), await encryptJson('s', 'o', value)];
    expect(one.iv).not.toBe(two.iv);
    expect(one.data).not.toBe(two.data);
  });

  it('gives undefined for a wrong secret, another owner or another purpose', async () => {
    const sealed = await encryptJson('secret-1', 'session-a', value);
    expect(await decryptJson('secret-2', 'session-a', sealed)).toBeUndefined();
    expect(await decryptJson('secret-1', 'session-b', sealed)).toBeUndefined();
    expect(await decryptJson('secret-1', 'session-a', sealed, 'another purpose')).toBeUndefined();
  });

  it('gives undefined for a changed record and for anything that is not a sealed record', async () => {
    const sealed = await encryptJson('secret-1', 'session-a', value);
    const flipped = fromBase64Url(sealed.data)!;
    flipped[0] = flipped[0]! ^ 1;
    expect(await decryptJson('secret-1', 'session-a', { ...sealed, data: toBase64Url(flipped) })).toBeUndefined();
    expect(await decryptJson('secret-1', 'session-a', { ...sealed, tag: sealed.iv })).toBeUndefined();
    for (const junk of [undefined, null, 'text', 42, {}, { ...sealed, alg: 'A128GCM' }, { ...sealed, iv: 'not base64!' }, { ...sealed, data: 7 }])
      expect(await decryptJson('secret-1', 'session-a', junk)).toBeUndefined();
  });

  it('derives one key per (secret, owner) and reuses it', async () => {
    const key = await ownerKey('secret-1', 'session-a');
    expect(await ownerKey('secret-1', 'session-a')).toBe(key);
    expect(await ownerKey('secret-1', 'session-b')).not.toBe(key);
    expect(await ownerKey('secret-2', 'session-a')).not.toBe(key);
  });

  it('keeps working past the cache bound (keys dropped are derived again, equal in effect)', async () => {
    const first = await encryptJson('secret-1', 'owner-0', value);
    for (let i = 1; i <= 1_100; i++) await ownerKey('secret-1', `owner-${i}`);
    expect(await decryptJson('secret-1', 'owner-0', first)).toEqual(value);
  });

  it('opens the __encrypted part of a sealed elicitation record: one key derivation for both', async () => {
    const now = Date.now();
    const text = await sealRecord({ sessionId: 'session-a', elicitId: 'e1', createdAt: now, expiresAt: now + 60_000, message: 'Close?' }, 'secret-1');
    const stored = JSON.parse(text) as { __encrypted: unknown; message?: string };
    expect(stored.message).toBeUndefined();
    expect(await decryptJson('secret-1', 'session-a', stored.__encrypted)).toEqual({ message: 'Close?' });
  });
});
