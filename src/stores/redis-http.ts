// Redis over HTTP (the Upstash REST protocol) on @upstash/redis: a store an edge isolate can reach, with real
// publish/subscribe as one server-sent-event stream per subscribed channel. Nothing polls.
import { Redis } from '@upstash/redis/cloudflare'; // the platform-neutral build: global fetch, no process.env
import { createRedactor, readEnv, type EnvSource, type Redactor } from '../runtime';
import { ElicitationNotSupportedError, InvalidInputError } from '../protocol';
import { provideRedisHttp, type RedisHttpStoreOptions } from './provided';
export type { RedisHttpStoreOptions } from './provided';
import { probePubSub } from './probe';
import { openSubscription } from './redis-http-stream';
import type { MessageHandler, StoreBackend, StoreSortedSets } from './types';

/** A store failure, with the driver's message but never the command (it would carry stored values). */
export class RedisHttpError extends Error {
  override name = 'RedisHttpError';
}

// The client puts channel names in the URL path as they are, and splits events at commas: only such names arrive whole.
const SAFE_CHANNEL = /^[A-Za-z0-9._~:@-]+$/;

// A subscriber reads one event line, so a message with a line break would arrive cut. Such a message (and one that
// starts with the marker) travels as marker + JSON string; every other message, like the single-line JSON Parley
// publishes, travels as it is, so subscribers over TCP on the same Redis read it too.
const MARKER = '\u001bJ';
const toEventLine = (message: string): string =>
  /[\r\n]/.test(message) || message.startsWith(MARKER) ? MARKER + JSON.stringify(message) : message;
function fromEventLine(line: string): string {
  if (!line.startsWith(MARKER)) return line;
  try {
    const message: unknown = JSON.parse(line.slice(MARKER.length));
    return typeof message === 'string' ? message : line;
  } catch {
    return line; // not ours: delivered as it came
  }
}

/**
 * The largest request Upstash takes on its Free and Pay-as-you-go plans, 10 MB
 * (upstash.com/docs/redis/troubleshooting/max_request_size_exceeded): a command whose JSON body is larger is refused
 * before it is sent, and the key keeps what it had.
 */
const MAX_REQUEST_BYTES = 10_000_000;
const TOO_LARGE = /\bmax request size exceeded\b/i;

/**
 * Refuses a command Upstash would not take, before it is sent: an error the caller reads (INVALID_INPUT), since trying
 * again would not help. Measured as @upstash/redis sends it, the command's parts in a JSON array; 64 bytes for the rest.
 */
function checkRequest(...parts: string[]): void {
  // Fast path: a string of n UTF-16 units is at most 6n bytes of JSON (a \u escape each), so most commands need no encoding.
  let units = 64;
  for (const part of parts) units += part.length * 6;
  if (units <= MAX_REQUEST_BYTES) return;
  const bytes = new TextEncoder().encode(JSON.stringify(parts)).byteLength + 64;
  if (bytes > MAX_REQUEST_BYTES)
    throw new InvalidInputError(
      `Redis over HTTP: a value in a request of ${bytes} bytes can't be kept; Upstash takes at most ${MAX_REQUEST_BYTES} bytes in one request`,
    );
}

/**
 * The driver's message without the command (stored values) and, redacted, without the token or URL credentials. A
 * request the database refused as too large (a plan with a lower limit) is the caller's error too, not the store's.
 */
const cleanWith =
  (redactor: Redactor) =>
  (error: unknown): Error => {
    const message = redactor.text((error instanceof Error ? error.message : String(error)).split(', command was:')[0]!);
    return TOO_LARGE.test(message)
      ? new InvalidInputError(`Redis over HTTP: a value can't be kept; the database refused its request as too large (${message})`)
      : new RedisHttpError(`Redis over HTTP: ${message}`);
  };

export class RedisHttpStore implements StoreBackend {
  readonly type = 'redis-http';
  readonly supportsPubSub = true;
  readonly distributed = true;
  // #private: the client and the token are never serialized or inspected from here.
  readonly #redis: Redis;
  readonly #url: string;
  readonly #token: string;
  readonly #subscribeTimeoutMs: number;
  readonly #onError: (error: Error) => void;
  readonly #open = new Set<() => Promise<void>>();
  readonly #restored = new Set<() => void>();
  readonly #clean: (error: unknown) => Error;

  constructor(options: RedisHttpStoreOptions) {
    if (!options.url || !options.token)
      throw new RedisHttpError('Redis over HTTP needs a url and a token (UPSTASH_REDIS_REST_URL, UPSTASH_REDIS_REST_TOKEN)');
    // Strings in, strings out: no JSON guessing on values or messages. Replies come base64-encoded (the default).
    this.#redis = new Redis({
      url: options.url,
      token: options.token,
      automaticDeserialization: false,
      enableTelemetry: false,
      retry: { retries: 2 },
    });
    this.#url = options.url.replace(/\/$/, '');
    this.#token = options.token;
    this.#subscribeTimeoutMs = options.subscribeTimeoutMs ?? 10_000;
    this.#onError = options.onError ?? (() => undefined);
    this.#clean = cleanWith(createRedactor([options.token]));
  }

  get(key: string): Promise<string | undefined> {
    return this.#redis.get<string>(key).then(
      (v) => v ?? undefined,
      (e) => Promise.reject(this.#clean(e)),
    );
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    checkRequest(key, value);
    // A TTL of zero or less has already run out.
    const done =
      ttlMs === undefined
        ? this.#redis.set(key, value)
        : ttlMs <= 0
          ? this.#redis.del(key)
          : this.#redis.set(key, value, { px: Math.ceil(ttlMs) });
    await done.catch((e) => Promise.reject(this.#clean(e)));
  }

  async delete(key: string): Promise<void> {
    await this.#redis.del(key).catch((e) => Promise.reject(this.#clean(e)));
  }

  take(key: string): Promise<string | undefined> {
    return this.#redis.getdel<string>(key).then(
      (v) => v ?? undefined,
      (e) => Promise.reject(this.#clean(e)),
    );
  }

  /** Redis's own sorted sets: ZADD, the cap and the TTL in one script, so each add is one step. */
  readonly sortedSets: StoreSortedSets = {
    add: async (key, member, score, { ttlMs, max }) => {
      const args = [String(score), member, String(Math.ceil(ttlMs)), String(max)];
      checkRequest(ADD_MEMBER, key, member);
      await this.#redis.eval(ADD_MEMBER, [key], args).catch((e) => Promise.reject(this.#clean(e)));
    },
    upTo: (key, maxScore, limit) =>
      this.#redis.zrange<string[]>(key, '-inf', maxScore, { byScore: true, offset: 0, count: limit }).then(
        (members) => members.map(String),
        (e) => Promise.reject(this.#clean(e)),
      ),
    remove: async (key, member) => {
      await this.#redis.zrem(key, member).catch((e) => Promise.reject(this.#clean(e)));
    },
  };

  /** PUBLISH over HTTP answers Redis's count too: how many subscribers, over every connection, received it. */
  async publish(channel: string, message: string): Promise<number> {
    checkChannel(channel);
    const line = toEventLine(message);
    checkRequest(channel, line);
    const receivers = await this.#redis.publish(channel, line).catch((e) => Promise.reject(this.#clean(e)));
    return Number(receivers);
  }

  /** Called when a subscription's stream opens again after a drop (Redis may have restarted meanwhile). */
  onRestored(listener: () => void): () => void {
    this.#restored.add(listener);
    return () => void this.#restored.delete(listener);
  }

  async subscribe(channel: string, onMessage: MessageHandler): Promise<() => Promise<void>> {
    checkChannel(channel);
    const end = await openSubscription({
      url: this.#url,
      token: this.#token,
      channel,
      openTimeoutMs: this.#subscribeTimeoutMs,
      // Handlers run on their own, so one that throws cannot end the stream.
      onMessage: (message) => queueMicrotask(() => onMessage(fromEventLine(message))),
      onDrop: (error) => this.#onError(this.#clean(error)),
      onReopen: () => {
        for (const listener of this.#restored) queueMicrotask(listener);
      },
    }).catch((error: unknown) => Promise.reject(this.#clean(error)));
    const stop = async () => {
      this.#open.delete(stop);
      end();
    };
    this.#open.add(stop);
    return stop;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#open].map((stop) => stop()));
  }
}

// ZADD, then the lowest-scored go past the cap, then the key lives at least the TTL more (PTTL is -1 without one).
const ADD_MEMBER = `redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
local extra = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if extra > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, extra - 1) end
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1`;

function checkChannel(channel: string): void {
  if (!SAFE_CHANNEL.test(channel)) throw new RedisHttpError(`Redis over HTTP needs URL-safe channel names; got ${JSON.stringify(channel)}`);
}

/** A Redis-over-HTTP store; with no options, from UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN. */
export function redisHttpStore(options?: Partial<RedisHttpStoreOptions>, env?: EnvSource): RedisHttpStore {
  const url = options?.url ?? readEnv('UPSTASH_REDIS_REST_URL', env) ?? '';
  const token = options?.token ?? readEnv('UPSTASH_REDIS_REST_TOKEN', env) ?? '';
  return new RedisHttpStore({ ...options, url, token });
}

/**
 * The elicitation store over HTTP, once it has shown that publish/subscribe works: a message published on a fresh
 * channel came back. A REST endpoint without it (Vercel KV's, for one) is refused, since answers could not reach the
 * instance that asked.
 */
export async function openRedisHttpStore(
  options: Partial<RedisHttpStoreOptions>,
  env: EnvSource,
  keyPrefix: string,
  onError?: (error: Error) => void,
): Promise<RedisHttpStore> {
  const store = redisHttpStore({ ...options, onError }, env);
  try {
    await probePubSub(store, keyPrefix);
  } catch (error) {
    await store.close();
    const reason = error instanceof Error ? error.message.replace(/^Redis over HTTP: /, '') : String(error);
    throw new ElicitationNotSupportedError(
      `Redis over HTTP can't publish and subscribe here (${reason}); elicitation needs both to pass answers between instances`,
    );
  }
  return store;
}

/**
 * Puts Redis over HTTP into an edge bundle, which leaves @upstash/redis out unless asked: then `{ provider: 'upstash' }`
 * and UPSTASH_REDIS_REST_URL/TOKEN choose it there as they do on Node (where it loads without this call).
 * @example import { enableRedisHttp } from 'parley-mcp/redis-http'; enableRedisHttp(); export default createWorker(config);
 */
export function enableRedisHttp(): void {
  provideRedisHttp({ openRedisHttpStore });
}
