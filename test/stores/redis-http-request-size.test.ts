// Upstash's limit on one request (10 MB on its Free and Pay-as-you-go plans), through the project's Upstash REST test
// server in front of a real redis-server: a value that would make a larger request is refused before anything is
// sent, with an error the caller reads (INVALID_INPUT), and the key keeps what it had; a database whose plan takes
// less refuses the request, and that is the caller's error too, not a store that is down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/protocol';
import { RedisHttpStore } from '../../src/stores/redis-http';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';

const LIMIT = 10_000_000;

let redis: RunningRedis;
let server: UpstashServer;
let smallPlan: UpstashServer;
beforeAll(async () => {
  redis = await startRedis();
  [server, smallPlan] = await Promise.all([startUpstashServer(redis.url), startUpstashServer(redis.url, { maxRequestBytes: 1_000_000 })]);
});
afterAll(async () => {
  await Promise.all([server?.close(), smallPlan?.close()]);
  await redis?.stop();
});

const storeOf = (s: UpstashServer) => new RedisHttpStore({ url: s.url, token: s.token });
const tooLarge = /^Redis over HTTP: a value in a request of \d+ bytes can't be kept; Upstash takes at most 10000000 bytes in one request$/;

describe("Redis over HTTP and Upstash's request size", () => {
  it('refuses a value over the limit before sending it; the key keeps what it had, and the store serves on', async () => {
    const store = storeOf(server);
    const key = `big:${crypto.randomUUID()}`;
    await store.set(key, 'kept', 60_000);
    const before = server.log.length;
    const refused = store.set(key, 'x'.repeat(LIMIT), 60_000).catch((e: unknown) => e);
    expect(await refused).toBeInstanceOf(InvalidInputError);
    expect(((await refused) as InvalidInputError).code).toBe('INVALID_INPUT');
    expect(((await refused) as Error).message).toMatch(tooLarge);
    expect(server.log.slice(before)).toEqual([]); // nothing was sent
    expect(await store.get(key)).toBe('kept');
  });

  it('measures the request as sent: a value that JSON escapes past the limit is refused, one just under it is kept', async () => {
    const store = storeOf(server);
    const key = `escaped:${crypto.randomUUID()}`;
    // 1.7 million control characters: 1.7 MB of UTF-8, over 10 MB once each is a \u escape in the request's JSON.
    await expect(store.set(key, '\u0001'.repeat(1_700_000))).rejects.toThrow(tooLarge);
    const largest = 'y'.repeat(LIMIT - 1_000);
    await store.set(key, largest, 60_000);
    expect(await store.get(key)).toHaveLength(largest.length);
    await store.delete(key);
  });

  it('refuses a sorted-set member and a message over the limit too', async () => {
    const store = storeOf(server);
    const before = server.log.length;
    const huge = 'z'.repeat(LIMIT);
    await expect(store.sortedSets.add('due:big', huge, 1, { ttlMs: 60_000, max: 10 })).rejects.toThrow(tooLarge);
    await expect(store.publish('mcp:big', huge)).rejects.toThrow(tooLarge);
    expect(server.log.slice(before)).toEqual([]);
  });

  it("takes a database's own refusal (a plan with a lower limit) as the caller's error, saying so", async () => {
    const store = storeOf(smallPlan);
    const key = `plan:${crypto.randomUUID()}`;
    await store.set(key, 'kept');
    const refused = await store.set(key, 'x'.repeat(1_500_000)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidInputError);
    expect((refused as Error).message).toBe(
      "Redis over HTTP: a value can't be kept; the database refused its request as too large (ERR max request size exceeded)",
    );
    expect(smallPlan.log.at(-1)).toMatch(/ refused: too large$/); // a command alone, or auto-pipelined
    expect(await store.get(key)).toBe('kept');
  });
});
