// The verified-token cache: kept until its time, bounded (the oldest goes first), keyed by a digest, never the token.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignJWT } from 'jose';
import { createBearerVerifier } from '../../src/auth/bearer';
import { createTokenCache } from '../../src/auth/token-cache';
import { utf8 } from '../../src/crypto';
import { authSchema } from '../../src/model/auth-options';

afterEach(() => vi.useRealTimers());

describe('createTokenCache', () => {
  it('gives back what was kept for a token until its time, under a key that is not the token', async () => {
    const cache = createTokenCache<string>();
    const first = await cache.get('token-a');
    expect(first.value).toBeUndefined();
    expect(first.key).not.toContain('token-a');
    cache.set(first.key, 'alice', Date.now() + 1000);
    expect((await cache.get('token-a')).value).toBe('alice');
    expect((await cache.get('token-b')).value).toBeUndefined();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 1001);
    expect((await cache.get('token-a')).value).toBeUndefined();
  });

  it('holds at most its bound, dropping the oldest first', async () => {
    const cache = createTokenCache<number>({ maxEntries: 3 });
    for (let i = 0; i < 4; i++) cache.set((await cache.get(`t${i}`)).key, i, Date.now() + 60_000);
    const values = await Promise.all([0, 1, 2, 3].map(async (i) => (await cache.get(`t${i}`)).value));
    expect(values).toEqual([undefined, 1, 2, 3]);
  });
});

describe('the bearer verifier on a runtime with its own HMAC (parley-mcp/node passes node:crypto)', () => {
  it("keys its verified tokens with the runtime's HMAC under a key of its own, not WebCrypto's digest", async () => {
    const keys: Uint8Array[] = [];
    const signed: string[] = [];
    const hmac = (key: Uint8Array<ArrayBuffer>) => {
      keys.push(key);
      return { sign: (data: string) => (signed.push(data), `mac-of-${data.length}`) };
    };
    const secret = 'a-test-secret-for-the-cache';
    const verify = createBearerVerifier(authSchema.parse({ secret }), hmac)!;
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('u').setExpirationTime('5m').sign(utf8(secret));
    expect('caller' in (await verify(token, 'http://x/mcp', new Request('http://x/mcp')))).toBe(true);
    expect('caller' in (await verify(token, 'http://x/mcp', new Request('http://x/mcp')))).toBe(true);
    expect(keys).toHaveLength(1);
    expect(keys[0]!.length).toBe(32);
    expect(signed).toEqual([token, token]);
  });
});
