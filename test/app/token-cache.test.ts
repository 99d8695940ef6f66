// The verified-token cache: kept until its time, bounded (the oldest goes first), keyed by a digest, never the token.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenCache } from '../../src/app/token-cache';

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
    const cache = createTokenCache<number>(3);
    for (let i = 0; i < 4; i++) cache.set((await cache.get(`t${i}`)).key, i, Date.now() + 60_000);
    const values = await Promise.all([0, 1, 2, 3].map(async (i) => (await cache.get(`t${i}`)).value));
    expect(values).toEqual([undefined, 1, 2, 3]);
  });
});
