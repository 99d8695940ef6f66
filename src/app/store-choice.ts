// Which store keeps pending elicitations, row by row as the docs' table checks: elicitation.redis, the server's redis,
// its sqlite, Durable Objects when the Worker's entry asked for them, Redis from the environment, memory. A new backend
// adds a provider case or a row here.
import { readEnv, type EnvSource, type Logger } from '../runtime';
import {
  boundedStore,
  providedDurableObjects,
  type StoreSource,
  memoryStore,
  redisOptionsSchema,
  type RedisHttpOptions,
  type RedisOptions,
  type SqliteOptions,
  type StoreBackend,
} from '../stores';
import type { ParleyConfig } from '../model';
// Node resolves the real drivers, an edge bundle a stand-in (package.json "imports"), so workerd never pulls ioredis.
import { drivers } from '#node-only';

/** A store picked but not opened yet: what it can do is known up front, so refusals need no connection. */
interface StoreChoice {
  source: StoreSource;
  keyPrefix: string;
  /** Its data is shared with other processes (the backend's `distributed` flag, known before opening). */
  distributed: boolean;
  /** Why it can't run on an edge isolate; undefined when it can. */
  notOnEdge?: string;
  /** Why it can never keep elicitations; undefined when it can. */
  refused?: string;
  /** Opens the backend; `timeoutMs` (elicitation.storeTimeoutMs) bounds the waits a driver must bound itself (SQLite's lock, Redis's QUIT). */
  open(onError: (error: Error) => void, timeoutMs?: number): Promise<StoreBackend>;
}

/** What a store tells the log: each cause of failure once (a driver that keeps reconnecting repeats itself), and its return. */
interface StoreLog {
  onError(error: Error): void;
  onBack(): void;
}

/** The store's log lines, each prefixed with `label`: a cause is written again only after another cause, or the store's return. */
export function storeLog(label: string, logger: Logger): StoreLog {
  let last: string | undefined;
  return {
    onError(error) {
      if (error.message !== last) logger.warn(`${label}: ${error.message}`);
      last = error.message;
    },
    onBack() {
      last = undefined;
      logger.info(`${label}: answering again`);
    },
  };
}

/**
 * Opens the chosen store with every operation bounded by `timeoutMs`: a store shared with other processes can keep a
 * request waiting (a Redis that hangs, a file another process locks); memory never does.
 */
export async function openBounded(choice: StoreChoice, log: StoreLog, timeoutMs: number): Promise<StoreBackend> {
  const backend = await choice.open(log.onError, timeoutMs);
  return backend.distributed ? boundedStore(backend, { timeoutMs, onError: log.onError, onBack: log.onBack }) : backend;
}

export const DEFAULT_KEY_PREFIX = 'mcp:';
/** Where elicitation state goes when it borrows the persistent questions' Redis. */
const ELICIT_KEY_PREFIX = 'mcp:elicit:';
const VERCEL_KV_REFUSED = 'Vercel KV is not supported for elicitation stores';
const TCP_NOT_ON_EDGE =
  'Redis over TCP (ioredis) needs a TCP connection, which an Edge runtime does not give: use Redis over HTTP there, or run on Node.js';
const SQLITE_NOT_ON_EDGE =
  'SQLite needs a local file, which an Edge runtime does not have: use Redis over HTTP for elicitation there, or run on Node.js';

export function redisChoice(options: RedisOptions, source: StoreSource, env: EnvSource): StoreChoice {
  const keyPrefix = (typeof options === 'string' ? undefined : options.keyPrefix) ?? DEFAULT_KEY_PREFIX;
  if (typeof options !== 'string' && options.provider === 'vercel-kv')
    return { source, keyPrefix, distributed: true, refused: VERCEL_KV_REFUSED, open: () => Promise.reject(new Error(VERCEL_KV_REFUSED)) };
  if (typeof options !== 'string' && options.provider === 'upstash') return redisHttpChoice(options, source, env);
  return {
    source,
    keyPrefix,
    distributed: true,
    notOnEdge: TCP_NOT_ON_EDGE,
    open: async (onError, timeoutMs) => (await drivers.redis()).createRedisStore(options, { onError, timeoutMs }),
  };
}

/**
 * Redis over HTTP: runs anywhere fetch does, edge isolates included (an edge bundle has it once its entry calls
 * enableRedisHttp()). Opening it proves publish/subscribe works, and refuses the store where it doesn't.
 */
function redisHttpChoice(options: RedisHttpOptions, source: StoreSource, env: EnvSource): StoreChoice {
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  return {
    source,
    keyPrefix,
    distributed: true,
    open: async (onError) => (await drivers.redisHttp()).openRedisHttpStore(options, env, keyPrefix, onError),
  };
}

export function sqliteChoice(options: SqliteOptions): StoreChoice {
  return {
    source: 'sqlite',
    keyPrefix: DEFAULT_KEY_PREFIX,
    distributed: true, // processes that open the same file share it
    notOnEdge: SQLITE_NOT_ON_EDGE,
    open: async (_, timeoutMs) => (await drivers.sqlite()).createSqliteStore(options, { busyTimeoutMs: timeoutMs }),
  };
}

/** REDIS_URL, else REDIS_HOST with REDIS_PORT, REDIS_PASSWORD, REDIS_DB and REDIS_TLS=true. */
export function redisFromEnv(env: EnvSource): RedisOptions | undefined {
  const url = readEnv('REDIS_URL', env);
  if (url) return url;
  const host = readEnv('REDIS_HOST', env);
  if (!host) return undefined;
  const number = (name: string) => {
    const text = readEnv(name, env);
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text)) throw new Error(`${name} must be a whole number, got "${text}"`);
    return Number(text);
  };
  return {
    provider: 'redis',
    host,
    port: number('REDIS_PORT'),
    password: readEnv('REDIS_PASSWORD', env),
    db: number('REDIS_DB'),
    tls: readEnv('REDIS_TLS', env) === 'true',
  };
}

type Row = (config: ParleyConfig, env: EnvSource) => StoreChoice | undefined;

const ROWS: Row[] = [
  (config, env) => (config.elicitation.redis === undefined ? undefined : redisChoice(config.elicitation.redis, 'elicitation.redis', env)),
  (config, env) => (config.redis === undefined ? undefined : redisChoice(config.redis, 'redis', env)),
  (config) => (config.sqlite === undefined ? undefined : sqliteChoice(config.sqlite)),
  // A persistent.storage that names Redis keeps the elicitation state too, under its own prefix (docs/elicitation.md, "Storage").
  (config, env) => {
    const redis = persistentRedisOf(config.elicitation.persistent);
    if (redis === undefined) return undefined;
    const choice = redisChoice(redis, 'persistent.storage', env);
    return typeof redis !== 'string' && redis.keyPrefix ? choice : { ...choice, keyPrefix: ELICIT_KEY_PREFIX };
  },
  // The Worker's entry asked for Durable Objects (enableDurableObjects()): before any store found only in the environment.
  // Opening it checks the binding, and names what to bind when there is none.
  (_, env) => {
    const driver = providedDurableObjects();
    return (
      driver && {
        source: 'durable-objects',
        keyPrefix: driver.keyPrefix ?? DEFAULT_KEY_PREFIX,
        distributed: true,
        open: async () => driver.open(env),
      }
    );
  },
  (_, env) => {
    const options = redisFromEnv(env);
    return options === undefined ? undefined : redisChoice(options, 'env', env);
  },
  (_, env) => (readEnv('UPSTASH_REDIS_REST_URL', env) ? redisHttpChoice({ provider: 'upstash' }, 'upstash-env', env) : undefined),
  (_, env) => (readEnv('KV_REST_API_URL', env) ? redisChoice({ provider: 'vercel-kv' }, 'env', env) : undefined),
];

function persistentRedisOf(persistent: unknown): RedisOptions | undefined {
  const storage = (persistent as { storage?: { type?: unknown; redis?: unknown } } | undefined)?.storage;
  if (storage?.type !== 'redis' || storage.redis === undefined) return undefined;
  const parsed = redisOptionsSchema.safeParse(storage.redis);
  if (!parsed.success) throw new Error(`elicitation.persistent.storage.redis: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

export function chooseElicitationStore(config: ParleyConfig, env: EnvSource): StoreChoice {
  for (const row of ROWS) {
    const choice = row(config, env);
    if (choice) return choice;
  }
  return { source: 'memory', keyPrefix: DEFAULT_KEY_PREFIX, distributed: false, open: async () => memoryStore() };
}
