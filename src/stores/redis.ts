// Redis over TCP (ioredis): keys with TTLs, GETDEL for take, and publish/subscribe on a second connection.
import { Redis, type RedisOptions as IoRedisOptions } from 'ioredis';
import { createRedactor, secretsIn } from '../runtime';
import type { RedisClusterOptions, RedisTcpOptions } from './options';
import { createRedisClusterStore, type RedisClusterStore } from './redis-cluster';
import { CLOSE_WAIT_MS, quitWithin } from './quit';
import type { MessageHandler, StoreBackend } from './types';

export interface RedisStoreOptions {
  /** Connection errors and handlers that throw, for the log; ioredis keeps reconnecting meanwhile. */
  onError?: (error: Error) => void;
  /** How long close() waits for Redis to acknowledge QUIT before it drops the connection (elicitation.storeTimeoutMs). Default 5 s. */
  timeoutMs?: number;
}

export class RedisStore implements StoreBackend {
  readonly type = 'redis';
  readonly supportsPubSub = true;
  readonly distributed = true;
  // #private: the ioredis clients carry their options, password included; nothing serializes or inspects them from here.
  readonly #client: Redis;
  readonly #onError: (error: Error) => void;
  #subscriber?: Redis;
  readonly #channels = new Map<string, { handlers: Set<MessageHandler>; ready: Promise<void> }>();
  #closed?: Promise<void>;
  readonly #restored = new Set<() => void>();
  readonly #closeWaitMs: number;

  constructor(client: Redis, onError: (error: Error) => void, closeWaitMs = CLOSE_WAIT_MS) {
    this.#client = client;
    this.#onError = onError;
    this.#closeWaitMs = closeWaitMs;
    // The client is connected already: its next `ready` follows a reconnection.
    client.on('ready', () => this.#tellRestored());
  }

  #tellRestored(): void {
    for (const listener of this.#restored) {
      try {
        listener();
      } catch (error) {
        this.#onError(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.#client.get(key)) ?? undefined;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    if (ttlMs === undefined) await this.#client.set(key, value);
    else if (ttlMs <= 0)
      await this.#client.del(key); // already expired
    else await this.#client.set(key, value, 'PX', Math.ceil(ttlMs));
  }

  async delete(key: string): Promise<void> {
    await this.#client.del(key);
  }

  /** GETDEL is one command, so of several callers exactly one gets the value. */
  async take(key: string): Promise<string | undefined> {
    return (await this.#client.getdel(key)) ?? undefined;
  }

  /** PUBLISH answers how many subscribers, over all connections to this Redis, received the message. */
  async publish(channel: string, message: string): Promise<number> {
    return this.#client.publish(channel, message);
  }

  /** Every `ready` after the first on either connection is a reconnection: Redis may have restarted meanwhile. */
  onRestored(listener: () => void): () => void {
    this.#restored.add(listener);
    return () => void this.#restored.delete(listener);
  }

  /** One subscriber connection per store; Redis is told once per channel, and orders SUBSCRIBE/UNSUBSCRIBE as sent. */
  async subscribe(channel: string, onMessage: MessageHandler): Promise<() => Promise<void>> {
    const subscriber = this.#subscriberConnection();
    let entry = this.#channels.get(channel);
    if (!entry) {
      const ready = subscriber.subscribe(channel).then(() => undefined);
      this.#channels.set(channel, (entry = { handlers: new Set(), ready }));
    }
    const handler: MessageHandler = (m) => onMessage(m);
    entry.handlers.add(handler);
    const unsubscribe = async () => {
      if (!entry.handlers.delete(handler) || entry.handlers.size > 0 || this.#channels.get(channel) !== entry) return;
      this.#channels.delete(channel);
      if (!this.#closed) await subscriber.unsubscribe(channel);
    };
    try {
      await entry.ready; // a second subscriber to a channel also waits until it is live
    } catch (error) {
      await unsubscribe().catch(() => undefined);
      throw error;
    }
    return unsubscribe;
  }

  close(): Promise<void> {
    this.#channels.clear();
    const wait = this.#closeWaitMs;
    return (this.#closed ??= Promise.all([quitWithin(this.#client, wait), this.#subscriber && quitWithin(this.#subscriber, wait)]).then(
      () => undefined,
    ));
  }

  #subscriberConnection(): Redis {
    if (this.#closed) throw new Error('The Redis store is closed');
    if (this.#subscriber) return this.#subscriber;
    const subscriber = this.#client.duplicate();
    subscriber.on('error', this.#onError);
    // ioredis subscribes again on each reconnection; after the first `ready`, the channels are live again.
    let connected = false;
    subscriber.on('ready', () => {
      if (connected) this.#tellRestored();
      connected = true;
    });
    subscriber.on('message', (channel: string, message: string) => {
      for (const handler of this.#channels.get(channel)?.handlers ?? []) {
        try {
          handler(message);
        } catch (error) {
          this.#onError(error instanceof Error ? error : new Error(String(error)));
        }
      }
    });
    return (this.#subscriber = subscriber);
  }
}

/** ioredis's options for ours: never ioredis's own keyPrefix (callers prefix their keys themselves). */
export function ioRedisOptions(options: RedisTcpOptions | string): { url?: string; options: IoRedisOptions } {
  const base: IoRedisOptions = { lazyConnect: true, maxRetriesPerRequest: 3, connectTimeout: 5_000 };
  if (typeof options === 'string') return { url: options, options: base };
  const tls = options.tls === true ? {} : options.tls === false ? undefined : options.tls;
  const { host, port, username, password, db } = options;
  return { url: options.url, options: { ...base, host, port, username, password, db, ...(tls ? { tls } : {}) } };
}

/**
 * Connects to Redis and resolves once the connection is ready; fails with a clear error when it can't. Options with
 * `cluster` open a Redis Cluster instead (see createRedisClusterStore).
 * @example const store = await createRedisStore({ host: '127.0.0.1', port: 6379 });
 */
export async function createRedisStore(options: RedisClusterOptions, extra?: RedisStoreOptions): Promise<RedisClusterStore>;
export async function createRedisStore(options: RedisTcpOptions | string, extra?: RedisStoreOptions): Promise<RedisStore>;
export async function createRedisStore(
  options: RedisTcpOptions | RedisClusterOptions | string,
  extra?: RedisStoreOptions,
): Promise<RedisStore | RedisClusterStore>;
export async function createRedisStore(
  options: RedisTcpOptions | RedisClusterOptions | string,
  extra: RedisStoreOptions = {},
): Promise<RedisStore | RedisClusterStore> {
  if (typeof options !== 'string' && 'cluster' in options) return createRedisClusterStore(options, extra);
  const onError = extra.onError ?? (() => undefined);
  const resolved = ioRedisOptions(options);
  const client = resolved.url ? new Redis(resolved.url, resolved.options) : new Redis(resolved.options);
  client.on('error', onError);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    const where = resolved.url ?? `${resolved.options.host ?? '127.0.0.1'}:${resolved.options.port ?? 6379}`;
    // Redacted: the URL's credentials, and the password wherever the driver's message might repeat it.
    const redact = createRedactor(secretsIn(options));
    throw new Error(redact.text(`Could not connect to Redis at ${where}: ${error instanceof Error ? error.message : String(error)}`));
  }
  return new RedisStore(client, onError, extra.timeoutMs);
}

export { createRedisClusterStore, RedisClusterStore } from './redis-cluster';
