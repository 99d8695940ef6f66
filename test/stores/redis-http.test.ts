// Redis over HTTP against real Redis, through the project's Upstash REST test server: the store contract, what only
// this backend does (SSE without polling, URL-safe channels, tokens), and the factory choosing or refusing it.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/runtime';
import { parseConfig, type ParleyConfigInput } from '../../src/model/config';
import { createElicitationStore } from '../../src/app/store-factory';
import { RedisHttpStore, redisHttpStore } from '../../src/stores/redis-http';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';
import { describeStoreContract } from './contract';

let redis: RunningRedis;
let server: UpstashServer;
let noPubSub: UpstashServer;
beforeAll(async () => {
  redis = await startRedis();
  [server, noPubSub] = await Promise.all([startUpstashServer(redis.url), startUpstashServer(redis.url, { subscribe: false })]);
});
afterAll(async () => {
  await Promise.all([server?.close(), noPubSub?.close()]);
  await redis?.stop();
});

const store = () => new RedisHttpStore({ url: server.url, token: server.token });

describeStoreContract('redis-http', async () => store());

describe('Redis over HTTP', () => {
  it('waits on server-sent events: nothing is asked while a subscriber waits', async () => {
    const [a, b] = [store(), store()];
    const got: string[] = [];
    const stop = await a.subscribe('mcp:result:abc', (m) => got.push(m));
    const before = server.log.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(server.log.slice(before)).toEqual([]);
    await b.publish('mcp:result:abc', '{"answer":"ünï"}');
    await expect.poll(() => got).toEqual(['{"answer":"ünï"}']);
    await stop();
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses channel names the protocol would mangle, and a wrong token, with clear errors', async () => {
    await expect(store().subscribe('a channel/with?odd,chars', () => undefined)).rejects.toThrow(/URL-safe/);
    await expect(store().publish('a,b', 'x')).rejects.toThrow(/URL-safe/);
    const wrong = new RedisHttpStore({ url: server.url, token: 'nope' });
    await expect(wrong.get('k')).rejects.toThrow(/^Redis over HTTP: Unauthorized$/);
    await expect(wrong.subscribe('mcp:y', () => undefined)).rejects.toThrow(/Unauthorized/);
  });

  it('opens a dropped subscription stream again, says so, and delivers what is published after', async () => {
    const problems: string[] = [];
    const [a, b] = [new RedisHttpStore({ url: server.url, token: server.token, onError: (e) => problems.push(e.message) }), store()];
    const got: string[] = [];
    const stop = await a.subscribe('mcp:result:dropped', (m) => got.push(m));
    const opened = server.log.filter((line) => line === '/subscribe').length;
    expect(server.dropStreams()).toBe(1);
    await expect.poll(() => server.log.filter((line) => line === '/subscribe').length).toBe(opened + 1);
    // Redis keeps no message for a subscriber that is away: publish until the new stream hears one.
    await expect.poll(async () => (await b.publish('mcp:result:dropped', 'after'), got.length), { interval: 50 }).toBeGreaterThan(0);
    expect(new Set(got)).toEqual(new Set(['after']));
    expect(problems[0]).toMatch(/^Redis over HTTP: the subscription to mcp:result:dropped dropped \(.+\); opening it again in 100 ms$/);
    await stop();
    await expect.poll(() => server.openStreams()).toBe(0);
    await Promise.all([a.close(), b.close()]);
  });

  it('keeps trying, slower each time, while the server is away, and stops when unsubscribed', async () => {
    const away = await startUpstashServer(redis.url);
    const problems: string[] = [];
    const a = new RedisHttpStore({ url: away.url, token: away.token, onError: (e) => problems.push(e.message) });
    const stop = await a.subscribe('mcp:result:away', () => undefined);
    await away.close(); // the stream drops, and nothing answers at that address any more
    await expect.poll(() => problems.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    expect(problems[0]).toMatch(/dropped .*; opening it again in 100 ms$/);
    expect(problems[1]).toMatch(
      /^Redis over HTTP: the subscription to mcp:result:away did not open again \(.+\); opening it again in 200 ms$/,
    );
    expect(problems[2]).toMatch(/opening it again in 400 ms$/);
    await stop();
    const seen = problems.length;
    await new Promise((r) => setTimeout(r, 1_000));
    expect(problems.length).toBe(seen); // the next attempt was due within 800 ms
  });

  it('takes its URL and token from the code, else from UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN', async () => {
    expect(() => redisHttpStore({}, {})).toThrow(/UPSTASH_REDIS_REST_URL/);
    const fromEnv = redisHttpStore({}, { UPSTASH_REDIS_REST_URL: server.url, UPSTASH_REDIS_REST_TOKEN: server.token });
    await fromEnv.set('env:k', 'v');
    expect(await redisHttpStore({ url: server.url, token: server.token }).get('env:k')).toBe('v');
  });
});

describe('the factory and Redis over HTTP', () => {
  // The machine's own environment must not hand the factory credentials.
  beforeEach(() =>
    ['UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN', 'REDIS_URL', 'REDIS_HOST', 'KV_REST_API_URL'].forEach((name) =>
      vi.stubEnv(name, ''),
    ),
  );
  afterEach(() => vi.unstubAllEnvs());

  async function create(elicitation: ParleyConfigInput['elicitation'], env: Record<string, string> = {}) {
    const lines: string[] = [];
    const config = parseConfig({ info: { name: 't', version: '1' }, elicitation: { enabled: true, ...elicitation } });
    const created = await createElicitationStore(
      config,
      env,
      createLogger('debug', (line) => lines.push(line)),
    );
    await created?.backend.close();
    return { created, lines };
  }

  it("chooses it when the config names provider 'upstash', after proving publish/subscribe works", async () => {
    const before = server.log.length;
    const { created, lines } = await create(
      { redis: { provider: 'upstash', url: server.url, token: server.token, keyPrefix: 'desk:' } },
      { MCP_SESSION_SECRET: 's' },
    );
    expect(created).toMatchObject({ source: 'elicitation.redis', keyPrefix: 'desk:', sessionsDistributed: true });
    expect(lines).toContain(
      "[parley] DEBUG Created elicitation store { type: 'redis-http', keyPrefix: 'desk:', supportsPubSub: true, encrypted: true }",
    );
    expect(server.log.slice(before)).toContain('/subscribe'); // the startup probe
  });

  it("logs a dropped subscription stream as the elicitation store's warning", async () => {
    const lines: string[] = [];
    const config = parseConfig({
      info: { name: 't', version: '1' },
      elicitation: { enabled: true, redis: { provider: 'upstash', url: server.url, token: server.token } },
    });
    const created = (await createElicitationStore(
      config,
      {},
      createLogger('info', (line) => lines.push(line)),
    ))!;
    const stop = await created.backend.subscribe('mcp:result:logged', () => undefined);
    await expect.poll(() => server.openStreams()).toBe(1); // the startup probe's stream is gone
    server.dropStreams();
    await expect
      .poll(() => lines)
      .toContainEqual(
        expect.stringMatching(
          /^\[parley\] WARN Elicitation store \(elicitation\.redis\): Redis over HTTP: the subscription to mcp:result:logged dropped/,
        ),
      );
    await stop();
    await created.backend.close();
  });

  it('chooses it from UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN, sessions included', async () => {
    const { created } = await create({}, { UPSTASH_REDIS_REST_URL: server.url, UPSTASH_REDIS_REST_TOKEN: server.token });
    expect(created).toMatchObject({ source: 'upstash-env', sessionsDistributed: true, info: { type: 'redis-http' } });
  });

  it('refuses an endpoint without publish/subscribe, and bad credentials, with ElicitationNotSupportedError', async () => {
    const refused = create({ redis: { provider: 'upstash', url: noPubSub.url, token: noPubSub.token } });
    await expect(refused).rejects.toMatchObject({ name: 'ElicitationNotSupportedError' });
    await expect(refused).rejects.toThrow("Redis over HTTP can't publish and subscribe here (ERR SUBSCRIBE is not supported)");
    await expect(create({ redis: { provider: 'upstash', url: server.url, token: 'wrong' } })).rejects.toThrow(
      /can't publish and subscribe here \(Unauthorized\)/,
    );
    await expect(create({ redis: { provider: 'upstash' } })).rejects.toThrow(/needs a url and a token/);
    expect(() =>
      parseConfig({ info: { name: 't', version: '1' }, elicitation: { redis: { provider: 'upstash', url: 'ftp://x' } } }),
    ).toThrow();
  });
});
