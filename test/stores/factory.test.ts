// The elicitation store the docs' table chooses, its startup log line, the secret, and the refusals (Vercel KV, edge).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFetchHandler } from '../../src';
import { createLogger } from '../../src/runtime';
import { parseConfig, type ParleyConfigInput } from '../../src/model/config';
import { createElicitationStore } from '../../src/app/store-factory';
import type { ElicitationStore } from '../../src/stores';
import { mcpRequest } from '../helpers/requests';
import { sparePort } from '../helpers/ports';
import { startRedis, type RunningRedis } from '../helpers/redis';

const ENV_NAMES = [
  'REDIS_URL',
  'REDIS_HOST',
  'REDIS_PORT',
  'REDIS_PASSWORD',
  'REDIS_DB',
  'REDIS_TLS',
  'KV_REST_API_URL',
  'UPSTASH_REDIS_REST_URL',
  'UPSTASH_REDIS_REST_TOKEN',
  'MCP_ELICITATION_SECRET',
  'MCP_SESSION_SECRET',
  'MCP_SERVER_SECRET',
];

let redis: RunningRedis;
let deadPort: number;
const dir = mkdtempSync(join(tmpdir(), 'parley-factory-'));
beforeAll(async () => {
  redis = await startRedis();
  deadPort = await sparePort();
});
afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});
// The machine's own environment must not choose a store here: every variable the factory reads starts empty.
beforeEach(() => {
  for (const name of ENV_NAMES) vi.stubEnv(name, '');
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const opened: ElicitationStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.backend.close()));
});

async function create(options: Partial<ParleyConfigInput>, env: Record<string, string> = {}) {
  const lines: string[] = [];
  const logger = createLogger('debug', (line) => lines.push(line));
  const config = parseConfig({ info: { name: 't', version: '1' }, ...options, elicitation: { enabled: true, ...options.elicitation } });
  const store = await createElicitationStore(config, env, logger);
  if (store) opened.push(store);
  return { store, lines };
}

const tcp = () => ({ provider: 'redis' as const, host: redis.host, port: redis.port });
const dead = () => ({ provider: 'redis' as const, host: '127.0.0.1', port: deadPort });

describe("the docs' table", () => {
  it('memory when nothing is set, and says so in the startup log', async () => {
    const { store, lines } = await create({});
    expect(lines).toContain(
      "[parley] DEBUG Created elicitation store { type: 'memory', keyPrefix: 'mcp:', supportsPubSub: false, encrypted: false }",
    );
    expect(store).toMatchObject({ source: 'memory', sessionsDistributed: false, keyPrefix: 'mcp:' });
  });

  it('elicitation.redis: Redis with publish/subscribe, logged exactly as the docs show', async () => {
    const { store, lines } = await create({ elicitation: { redis: tcp() } }, { MCP_SESSION_SECRET: 's' });
    expect(lines).toContain(
      "[parley] DEBUG Created elicitation store { type: 'redis', keyPrefix: 'mcp:', supportsPubSub: true, encrypted: true }",
    );
    expect(store).toMatchObject({ source: 'elicitation.redis', sessionsDistributed: true, secret: 's' });
    await store!.backend.set('mcp:factory:probe', 'v');
    expect(await store!.backend.get('mcp:factory:probe')).toBe('v');
  });

  it('elicitation.redis wins over the server redis and sqlite (which point nowhere here)', async () => {
    const { store } = await create({ elicitation: { redis: redis.url }, redis: dead(), sqlite: { path: dir } });
    expect(store).toMatchObject({ source: 'elicitation.redis', info: { type: 'redis' } });
  });

  it("the server's redis, with its own keyPrefix, and it wins over sqlite", async () => {
    const { store, lines } = await create({ redis: { ...tcp(), keyPrefix: 'desk:' }, sqlite: { path: dir } });
    expect(store).toMatchObject({ source: 'redis', keyPrefix: 'desk:', sessionsDistributed: true });
    expect(lines).toContain(
      "[parley] DEBUG Created elicitation store { type: 'redis', keyPrefix: 'desk:', supportsPubSub: true, encrypted: false }",
    );
  });

  it("the server's sqlite when there is no redis: shared data, no publish/subscribe across processes", async () => {
    const { store, lines } = await create({ sqlite: { path: join(dir, 'desk.sqlite') } });
    expect(lines).toContain(
      "[parley] DEBUG Created elicitation store { type: 'sqlite', keyPrefix: 'mcp:', supportsPubSub: false, encrypted: false }",
    );
    expect(store).toMatchObject({ source: 'sqlite', sessionsDistributed: true });
  });

  it('a persistent.storage that names Redis keeps the elicitation state too, under mcp:elicit:', async () => {
    const persistent = { storage: { type: 'redis', redis: tcp() } };
    const { store, lines } = await create({ elicitation: { persistent } as never });
    expect(store).toMatchObject({ source: 'persistent.storage', keyPrefix: 'mcp:elicit:', sessionsDistributed: true });
    expect(lines).toContain(
      "[parley] DEBUG Created elicitation store { type: 'redis', keyPrefix: 'mcp:elicit:', supportsPubSub: true, encrypted: false }",
    );
    // The server's redis and sqlite still come first, as the docs' table says.
    const withSqlite = await create({ sqlite: { path: join(dir, 'first.sqlite') }, elicitation: { persistent } as never });
    expect(withSqlite.store).toMatchObject({ source: 'sqlite', keyPrefix: 'mcp:' });
  });

  it('REDIS_URL alone: Redis from the environment, with sessions kept there too', async () => {
    const { store, lines } = await create({}, { REDIS_URL: redis.url });
    expect(lines).toContain(
      "[parley] DEBUG Created elicitation store { type: 'redis', keyPrefix: 'mcp:', supportsPubSub: true, encrypted: false }",
    );
    expect(store).toMatchObject({ source: 'env', sessionsDistributed: true });
  });

  it('REDIS_HOST with REDIS_PORT alone: the same, read from process.env as well', async () => {
    vi.stubEnv('REDIS_HOST', redis.host);
    vi.stubEnv('REDIS_PORT', String(redis.port));
    const { store } = await create({});
    expect(store).toMatchObject({ source: 'env', sessionsDistributed: true, info: { type: 'redis' } });
  });

  it('a config store wins over the environment', async () => {
    const { store } = await create({ sqlite: { path: join(dir, 'env.sqlite') } }, { REDIS_URL: `redis://127.0.0.1:${deadPort}` });
    expect(store).toMatchObject({ source: 'sqlite' });
  });

  it('a REDIS_PORT that is not a number is a clear startup error', async () => {
    await expect(create({}, { REDIS_HOST: '127.0.0.1', REDIS_PORT: 'six' })).rejects.toThrow(
      'REDIS_PORT must be a whole number, got "six"',
    );
  });

  it('a Redis nobody listens on fails the start with where it tried', async () => {
    await expect(create({ redis: dead() })).rejects.toThrow(`Could not connect to Redis at 127.0.0.1:${deadPort}`);
  });
});

describe('the secret', () => {
  it('MCP_ELICITATION_SECRET, else MCP_SESSION_SECRET, else MCP_SERVER_SECRET', async () => {
    const all = { MCP_ELICITATION_SECRET: 'e', MCP_SESSION_SECRET: 's', MCP_SERVER_SECRET: 'v' };
    expect((await create({}, all)).store?.secret).toBe('e');
    expect((await create({}, { ...all, MCP_ELICITATION_SECRET: '' })).store?.secret).toBe('s');
    expect((await create({}, { MCP_SERVER_SECRET: 'v' })).store?.secret).toBe('v');
    const none = await create({});
    expect(none.store?.secret).toBeUndefined();
    expect(none.store?.info.encrypted).toBe(false);
  });
});

describe('refusals', () => {
  it('Vercel KV as the only store', async () => {
    const refusal = 'Vercel KV is not supported for elicitation stores';
    await expect(create({ redis: { provider: 'vercel-kv' } })).rejects.toMatchObject({
      name: 'ElicitationNotSupportedError',
      message: refusal,
    });
    await expect(create({ elicitation: { redis: { provider: 'vercel-kv', url: 'https://kv.example' } } })).rejects.toThrow(refusal);
    await expect(create({}, { KV_REST_API_URL: 'https://kv.example' })).rejects.toThrow(refusal);
  });

  it('Vercel KV beside a Redis for elicitation is fine', async () => {
    const { store } = await create(
      { redis: { provider: 'vercel-kv' }, elicitation: { redis: tcp() } },
      { KV_REST_API_URL: 'https://kv.example' },
    );
    expect(store?.info.type).toBe('redis');
  });

  it('bad store options are a clear config error', () => {
    const parse = (extra: Record<string, unknown>) => () => parseConfig({ info: { name: 't', version: '1' }, ...extra });
    expect(parse({ redis: { provider: 'redis', port: 'six' } })).toThrow(/redis/);
    expect(parse({ redis: 'http://not-redis' })).toThrow(/redis/);
    expect(parse({ sqlite: {} })).toThrow(/sqlite\.path/);
    expect(parse({ elicitation: { enabled: true, edge: 'sometimes' } })).toThrow(/elicitation\.edge/);
  });
});

describe('on an edge isolate (the global that marks one)', () => {
  const global = globalThis as { EdgeRuntime?: string };
  beforeEach(() => {
    global.EdgeRuntime = 'edge-runtime';
  });
  afterEach(() => {
    delete global.EdgeRuntime;
  });
  const EDGE = 'Elicitation requires distributed storage when running on Edge runtime';

  it('refuses memory, and Redis found only in the environment', async () => {
    await expect(create({})).rejects.toMatchObject({ name: 'ElicitationNotSupportedError', message: EDGE });
    await expect(create({}, { REDIS_URL: redis.url })).rejects.toThrow(EDGE);
  });

  it("starts with no store when elicitation.edge is 'stateless', and says so", async () => {
    const { store, lines } = await create({ elicitation: { edge: 'stateless' } }, { REDIS_URL: redis.url });
    expect(store).toBeUndefined();
    expect(lines.join('\n')).toMatch(/No elicitation store on this Edge runtime \(elicitation.edge: 'stateless'\)/);
  });

  it('refuses SQLite and Redis over TCP that the config names, with their own reasons, stateless or not', async () => {
    for (const edge of [undefined, 'stateless' as const]) {
      await expect(create({ sqlite: { path: join(dir, 'edge.sqlite') }, elicitation: { edge } })).rejects.toMatchObject({
        name: 'ElicitationNotSupportedError',
        message: expect.stringMatching(/^SQLite needs a local file, which an Edge runtime does not have/),
      });
      await expect(create({ redis: tcp(), elicitation: { edge } })).rejects.toThrow(/^Redis over TCP \(ioredis\) needs a TCP connection/);
    }
  });

  it('Vercel KV keeps its own refusal there', async () => {
    await expect(create({ redis: { provider: 'vercel-kv' } })).rejects.toThrow('Vercel KV is not supported for elicitation stores');
  });

  it('the fetch handler answers every request 503 SERVER_START_FAILED and logs the error by name', async () => {
    const logged: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));
    try {
      const handler = createFetchHandler({ info: { name: 't', version: '1' }, elicitation: { enabled: true } });
      for (const request of [mcpRequest('tools/list'), mcpRequest('ping')]) {
        const response = await handler(request);
        expect(response.status).toBe(503);
        expect(await response.json()).toMatchObject({ error: 'SERVER_START_FAILED' });
      }
      expect(logged).toContain(`[parley] ERROR Server failed to start: ElicitationNotSupportedError: ${EDGE}`);
    } finally {
      spy.mockRestore();
    }
  });
});
