// The store contract against the memory backend; and what only this backend does: an expired entry nobody reads again
// (a lapsed lease) leaves the process's memory on later writes, and expiry stays exact to the millisecond for readers,
// also after the origin the expiries are counted from moved (days into a process's life).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStore, memoryStore } from '../../src/stores';
import { describeStoreContract } from './contract';

describeStoreContract('memory', async () => memoryStore());

const DAY = 86_400_000;
/** How many entries the store holds, expired ones not yet dropped included. */
const held = (store: MemoryStore) => (store as unknown as { entries: Map<string, unknown> }).entries.size;

describe('the memory store keeps no expired entry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('drops entries that expired unread as later writes go on, and keeps the live ones', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const store = new MemoryStore();
    for (let i = 0; i < 100; i++) await store.set(`lease:${i}`, '1', 30_000);
    for (let i = 0; i < 100; i++) await store.set(`record:${i}`, 'r', DAY);
    await store.set('forever', 'f');
    expect(held(store)).toBe(201);
    vi.setSystemTime(Date.now() + 30_000);
    // Writes to the records alone (setting a key again keeps its place): each looks at a few entries.
    for (let i = 0; i < 120; i++) await store.set(`record:${i % 60}`, 'r2', DAY);
    expect(held(store)).toBe(101);
    expect(await store.get('lease:0')).toBeUndefined();
    expect(await store.get('record:0')).toBe('r2');
    expect(await store.get('record:99')).toBe('r');
    expect(await store.get('forever')).toBe('f');
  });

  it('reads a value until the millisecond it expires, days on, after the origin of its expiry moved', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const store = new MemoryStore();
    const start = Date.now();
    await store.set('ten-days', 'v', 10 * DAY);
    await store.set('token', '1', 10 * DAY);
    await store.set('forever', 'f');
    await store.set('forever-token', '1');
    // A week on, a write starts a pass of the sweep, which first moves the origin up to now.
    vi.setSystemTime(start + 7 * DAY);
    await store.set('week', 'w', 3 * DAY + 1);
    for (let i = 0; i < 10; i++) await store.set(`later:${i}`, 'x', DAY);
    vi.setSystemTime(start + 10 * DAY - 1);
    expect(await store.get('ten-days')).toBe('v');
    expect(await store.get('token')).toBe('1');
    expect(await store.get('week')).toBe('w');
    vi.setSystemTime(start + 10 * DAY);
    expect(await store.get('ten-days')).toBeUndefined();
    expect(await store.take('ten-days')).toBeUndefined();
    expect(await store.take('token')).toBeUndefined();
    expect(await store.get('week')).toBe('w');
    vi.setSystemTime(start + 10 * DAY + 1);
    expect(await store.get('week')).toBeUndefined();
    expect(await store.get('forever')).toBe('f');
    expect(await store.take('forever-token')).toBe('1');
    expect(await store.get('forever-token')).toBeUndefined();
  });
});
