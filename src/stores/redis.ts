// Redis over TCP (ioredis): keys with TTLs, GETDEL for take, and publish/subscribe on a second connection.
import { Redis, type RedisOptions as IoRedisOptions } from 'ioredis';
import { createRedactor, secretsIn } from '../runtime';
import type { RedisClusterOptions, RedisTcpOptions } from './options';
import { createRedisClusterStore, type RedisClusterStore } from './redis-cluster';
import { CLOSE_WAIT_MS, quitWithin } from './quit';
import { RedisChannels, RedisKeys, RestoredListeners } from './redis-shared';
import type { MessageHandler, StoreBackend } from './types';

export interface RedisStoreOptions {
  /** Connection errors and handlers that throw, for the log; ioredis keeps reconnecting meanwhile. */
  onError?: (error: Error) => void;
  /** How long close() waits for Redis to acknowledge QUIT before it drops the connection (elicitation.storeTimeoutMs). Default 5 s. */
  timeoutMs?: number;
}

export class RedisStore extends RedisKeys implements StoreBackend {
  readonly type = 'redis';
  readonly supportsPubSub = true;
  readonly distributed = true;
  // #private: the ioredis clients carry their options, password included; nothing serializes or inspects them from here.
  readonly #client: Redis;
  readonly #onError: (error: Error) => void;
  #subscriber?: Redis;
  readonly #channels: RedisChannels;
  readonly #restored: RestoredListeners;
  #closed?: Promise<void>;
  readonly #closeWaitMs: number;

  constructor(client: Redis, onError: (error: Error) => void, closeWaitMs = CLOSE_WAIT_MS) {
    super(client);
    this.#client = client;
    this.#onError = onError;
    this.#channels = new RedisChannels(onError);
    this.#restored = new RestoredListeners(onError);
    this.#closeWaitMs = closeWaitMs;
    // The client is connected already: its next `ready` follows a reconnection.
    client.on('ready', () => this.#restored.tell());
  }

  /** PUBLISH answers how many subscribers, over all connections to this Redis, received the message. */
  async publish(channel: string, message: string): Promise<number> {
    return this.#client.publish(channel, message);
  }

  /** Every `ready` after the first on either connection is a reconnection: Redis may have restarted meanwhile. */
  onRestored(listener: () => void): () => void {
    return this.#restored.add(listener);
  }

  /** One subscriber connection per store; Redis is told once per channel, and orders SUBSCRIBE/UNSUBSCRIBE as sent. */
  async subscribe(channel: string, onMessage: MessageHandler): Promise<() => Promise<void>> {
    const subscriber = this.#subscriberConnection();
    return this.#channels.add(channel, onMessage, subscriber, () => this.#closed !== undefined);
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
      if (connected) this.#restored.tell();
      connected = true;
    });
    subscriber.on('message', (channel: string, message: string) => this.#channels.deliver(channel, message));
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
