// AES-256-GCM per owner: a round trip, and nothing readable with another secret, another owner or a changed record.
import { describe, expect, it } from 'vitest';
import { aesSeal, decryptJson, encryptJson, fromBase64Url, keyIdOf, secretList, toBase64Url, utf8 } from '../../src/crypto';
import { sealRecord } from '../../src/elicitation/sealed-record';

const value = { message: 'Close ticket T-1?', schema: { type: 'object', properties: { confirm: { type: 'boolean' } } }, n: [1, 2] };

describe('a secret setting that lists several secrets', () => {
  it('is comma-separated, newest first, spaces and empty entries ignored', () => {
    expect(secretList('new-secret, old-secret ,,older')).toEqual(['new-secret', 'old-secret', 'older']);
    expect(secretList('only')).toEqual(['only']);
    expect(secretList(undefined)).toEqual([]);
    expect(secretList(' , ')).toEqual([]);
  });

  it('seals with the first, opens with any listed, and refuses a record of a key no longer listed', async () => {
    const old = await encryptJson('old-secret', 'session-a', value);
    expect(old.kid).toBe(await keyIdOf('old-secret'));
    expect(await decryptJson('new-secret,old-secret', 'session-a', old)).toEqual(value);
    const fresh = await encryptJson('new-secret, old-secret', 'session-a', value);
    expect(fresh.kid).toBe(await keyIdOf('new-secret'));
    expect(await decryptJson('old-secret', 'session-a', fresh)).toBeUndefined();
    expect(await decryptJson('new-secret', 'session-a', fresh)).toEqual(value);
    expect(await decryptJson('new-secret', 'session-a', old)).toBeUndefined();
    // A record naming a key id that is listed, but changed to name another listed key: it opens under neither.
    expect(await decryptJson('new-secret,old-secret', 'session-a', { ...old, kid: fresh.kid })).toBeUndefined();
  });

  it('opens a record sealed before key ids (no kid) under whichever listed secret sealed it', async () => {
    // Derived here as the stored format fixes it (HKDF-SHA256, the owner as salt, the purpose as info), so a change
    // to the derivation that would strand such records fails this test.
    const base = await crypto.subtle.importKey('raw', utf8('old-secret'), 'HKDF', false, ['deriveKey']);
    const hkdf = { name: 'HKDF', hash: 'SHA-256', salt: utf8('session-a'), info: utf8('parley elicitation store v1') };
    const key = await crypto.subtle.deriveKey(hkdf, base, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const legacy = await aesSeal(key, utf8(JSON.stringify(value)));
    expect(legacy).not.toHaveProperty('kid');
    expect(await decryptJson('new-secret,old-secret', 'session-a', legacy)).toEqual(value);
    expect(await decryptJson('new-secret', 'session-a', legacy)).toBeUndefined();
  });
});

describe('encryptJson / decryptJson', () => {
  it('round-trips a JSON value, sealed as { alg: A256GCM, kid, iv, tag, data } in base64url', async () => {
    const sealed = await encryptJson('secret-1', 'session-a', value);
    expect(Object.keys(sealed).sort()).toEqual(['alg', 'data', 'iv', 'kid', 'tag']);
    expect(sealed.kid).toBe(await keyIdOf('secret-1'));
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
    for (const junk of [
      undefined,
      null,
      'text',
      42,
      {},
      { ...sealed, alg: 'A128GCM' },
      { ...sealed, iv: 'not base64!' },
      { ...sealed, data: 7 },
    ])
      expect(await decryptJson('secret-1', 'session-a', junk)).toBeUndefined();
  });

  it('keeps working past the cache bound (keys dropped are derived again, equal in effect)', async () => {
    const first = await encryptJson('secret-1', 'owner-0', value);
    for (let i = 1; i <= 1_100; i++) await encryptJson('secret-1', `owner-${i}`, value);
    expect(await decryptJson('secret-1', 'owner-0', first)).toEqual(value);
  });

  it('opens the __encrypted part of a sealed elicitation record: one key derivation for both', async () => {
    const now = Date.now();
    const text = await sealRecord(
      { sessionId: 'session-a', elicitId: 'e1', createdAt: now, expiresAt: now + 60_000, message: 'Close?' },
      'secret-1',
    );
    const stored = JSON.parse(text) as { __encrypted: unknown; message?: string };
    expect(stored.message).toBeUndefined();
    expect(await decryptJson('secret-1', 'session-a', stored.__encrypted)).toEqual({ message: 'Close?' });
  });
});
