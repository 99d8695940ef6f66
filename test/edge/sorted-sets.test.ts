// The stores' sorted sets (StoreSortedSets: what the edge keeps its due nudges in), one body over both backends that
// have them: Durable Objects in workerd (each operation from one of two isolates, the objects in a third) and Redis
// over HTTP (the Upstash REST test server in front of a real redis-server). Then what only a Durable Object can say:
// an alarm delivered for an object whose data went, and an expired set leaving nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreSortedSets } from '../../src/stores';
import { redisHttpStore } from '../../src/stores/redis-http';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers, type DurableWorkers, type Isolate } from '../helpers/durable-objects';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';

let workers: DurableWorkers;
let redis: RunningRedis;
let upstash: UpstashServer;
beforeAll(async () => {
  const { code } = await bundleWorker('test/edge/entries/durable-store-worker.ts');
  workers = startDurableWorkers({ code, classes: { PARLEY_STORE: { className: 'InspectedStore' } } });
  redis = await startRedis();
  upstash = await startUpstashServer(redis.url);
});
afterAll(async () => {
  await workers?.dispose();
  await upstash?.close();
  await redis?.stop();
});

const call = async (to: Isolate, path: string, body?: string) => {
  const response = await workers.send(to, `${path}&ns=PARLEY_STORE`, { method: 'POST', body });
  if (response.status >= 400) throw new Error(await response.text());
  return response.text();
};

/** The Durable Objects store's sorted sets as isolate a or b runs them, one operation after the other from each. */
function durableSets(): StoreSortedSets {
  let next = 0;
  const to = (): Isolate => (next++ % 2 ? 'a' : 'b');
  const k = (key: string) => encodeURIComponent(key);
  return {
    add: async (key, member, score, { ttlMs, max }) =>
      void (await call(to(), `/zadd?key=${k(key)}&score=${score}&ttl=${ttlMs}&max=${max}`, member)),
    upTo: async (key, maxScore, limit) => JSON.parse(await call(to(), `/zrange?key=${k(key)}&score=${maxScore}&limit=${limit}`)),
    remove: async (key, member) => void (await call(to(), `/zrem?key=${k(key)}`, member)),
  };
}

const backends: [string, () => StoreSortedSets][] = [
  ['durable-objects (two isolates of a Worker in workerd)', durableSets],
  ['redis-http', () => redisHttpStore({ url: upstash.url, token: upstash.token }).sortedSets!],
];

describe.each(backends)('sorted sets: %s', (_name, open) => {
  const day = { ttlMs: 86_400_000, max: 1000 };

  it('reads members up to a score, lowest first, at most a limit; moves and removes one', async () => {
    const sets = open();
    const key = `due:${crypto.randomUUID()}`;
    expect(await sets.upTo(key, Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    await sets.add(key, 'c', 300, day);
    await sets.add(key, 'a', 100, day);
    await sets.add(key, 'b', 200, day);
    expect(await sets.upTo(key, 250, 10)).toEqual(['a', 'b']);
    expect(await sets.upTo(key, 1e15, 2)).toEqual(['a', 'b']);
    await sets.add(key, 'a', 400, day); // moved, not added twice
    expect(await sets.upTo(key, 1e15, 10)).toEqual(['b', 'c', 'a']);
    await sets.remove(key, 'c');
    await sets.remove(key, 'not a member');
    expect(await sets.upTo(key, 1e15, 10)).toEqual(['b', 'a']);
  });

  it('keeps every member of 60 added at once (from two isolates, on Durable Objects)', async () => {
    const sets = open();
    const key = `race:${crypto.randomUUID()}`;
    const members = Array.from({ length: 60 }, (_, i) => `member-${String(i).padStart(2, '0')}`);
    await Promise.all(members.map((member, i) => sets.add(key, member, i, day)));
    expect(await sets.upTo(key, 1e15, 100)).toEqual(members);
  });

  it('past max, the lowest-scored go', async () => {
    const sets = open();
    const key = `cap:${crypto.randomUUID()}`;
    for (let i = 0; i < 5; i++) await sets.add(key, `m${i}`, i, { ttlMs: 60_000, max: 3 });
    expect(await sets.upTo(key, 1e15, 10)).toEqual(['m2', 'm3', 'm4']);
  });

  it('keeps members that name prototype members, and members with line breaks, apart', async () => {
    const sets = open();
    const key = '__proto__';
    const members = ['__proto__', 'constructor', 'toString', 'two\nlines', '{"a":1}', ''];
    for (const [i, member] of members.entries()) await sets.add(key, member, i, day);
    expect(await sets.upTo(key, 1e15, 10)).toEqual(members);
    for (const member of members) await sets.remove(key, member);
    expect(await sets.upTo(key, 1e15, 10)).toEqual([]);
  });

  it('goes when its TTL runs out, which each add extends and never shortens', async () => {
    const sets = open();
    const key = `ttl:${crypto.randomUUID()}`;
    await sets.add(key, 'long', 1, { ttlMs: 60_000, max: 10 });
    await sets.add(key, 'short', 2, { ttlMs: 200, max: 10 }); // the set still lives a minute
    await new Promise((r) => setTimeout(r, 500));
    expect(await sets.upTo(key, 1e15, 10)).toEqual(['long', 'short']);
    const brief = `ttl:${crypto.randomUUID()}`;
    await sets.add(brief, 'x', 1, { ttlMs: 200, max: 10 });
    await expect.poll(() => sets.upTo(brief, 1e15, 10), { timeout: 5_000 }).toEqual([]);
  });
});

describe('a Durable Object whose data went', () => {
  const left = async (key: string) => JSON.parse(await call('a', `/left?key=${key}`));

  it('leaves nothing once its sorted set expired, and an alarm delivered late or twice finds nothing to do', async () => {
    const key = `gone:${crypto.randomUUID()}`;
    await call('b', `/zadd?key=${key}&score=1&ttl=300&max=10`, 'member');
    expect(await left(key)).toMatchObject({ tables: ['entry'], alarm: expect.any(Number) });
    await expect.poll(() => left(key), { timeout: 5_000 }).toEqual({ tables: [], alarm: null });
    // The alarm again, for an object with nothing left (at-least-once delivery, or a value deleted meanwhile).
    expect(await call('a', `/alarm?key=${key}`)).toBe('ran');
    expect(await call('b', `/alarm?key=never-${crypto.randomUUID()}`)).toBe('ran');
    expect(await left(key)).toEqual({ tables: [], alarm: null });
    expect(JSON.parse(await call('a', `/zrange?key=${key}&score=1e15`))).toEqual([]);
  });

  it("keeps a value's alarm when a late alarm runs before its deadline", async () => {
    const key = `early:${crypto.randomUUID()}`;
    await call('a', `/set?key=${key}&ttl=60000`, 'still here');
    expect(await call('b', `/alarm?key=${key}`)).toBe('ran');
    expect(await call('a', `/get?key=${key}`)).toBe('still here');
    expect((await left(key)).alarm).toEqual(expect.any(Number));
  });
});
