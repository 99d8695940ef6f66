// What Redis and Redis Cluster share: the key commands with TTLs, the channels a store listens on (each told to Redis
// once, its handlers called in turn), and the listeners told when the store may have lost data.
import type { Cluster, Redis } from 'ioredis';
import type { MessageHandler } from './types';

type Client = Redis | Cluster;

/** A thrown value as an Error, for the store's onError. */
export const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/** The key commands of StoreBackend on either client: SET with PX, DEL for a TTL already past, GETDEL for take. */
export class RedisKeys {
  // #private: the client carries its options, password included; nothing serializes or inspects it from here.
  readonly #client: Client;

  constructor(client: Client) {
    this.#client = client;
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

  /** GETDEL is one command (on the key's master in a cluster), so of several callers exactly one gets the value. */
  async take(key: string): Promise<string | undefined> {
    return (await this.#client.getdel(key)) ?? undefined;
  }
}

/** How a store tells Redis it listens on a channel, or no longer does. */
export interface ChannelCommands {
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
}

/** The channels a store listens on: Redis is told once per channel, however many handlers listen on it here. */
export class RedisChannels {
  readonly #channels = new Map<string, { handlers: Set<MessageHandler>; ready: Promise<void> }>();

  constructor(private readonly onError: (error: Error) => void) {}

  names(): string[] {
    return [...this.#channels.keys()];
  }

  /** A message from Redis to each handler of its channel; one that throws goes to the log, not to the others. */
  deliver(channel: string, message: string): void {
    for (const handler of this.#channels.get(channel)?.handlers ?? []) {
      try {
        handler(message);
      } catch (error) {
        this.onError(asError(error));
      }
    }
  }

  /** Adds a handler and resolves once the channel is live (a second handler waits too); `closed` skips the unsubscribe. */
  async add(channel: string, onMessage: MessageHandler, commands: ChannelCommands, closed: () => boolean): Promise<() => Promise<void>> {
    let entry = this.#channels.get(channel);
    if (!entry) {
      const ready = commands.subscribe(channel).then(() => undefined);
      this.#channels.set(channel, (entry = { handlers: new Set(), ready }));
    }
    const handler: MessageHandler = (m) => onMessage(m);
    entry.handlers.add(handler);
    const unsubscribe = async () => {
      if (!entry.handlers.delete(handler) || entry.handlers.size > 0 || this.#channels.get(channel) !== entry) return;
      this.#channels.delete(channel);
      if (!closed()) await commands.unsubscribe(channel);
    };
    try {
      await entry.ready;
    } catch (error) {
      await unsubscribe().catch(() => undefined);
      throw error;
    }
    return unsubscribe;
  }

  clear(): void {
    this.#channels.clear();
  }
}

/** Who to tell when the store may have lost data (a reconnection, a failover); one that throws goes to the log. */
export class RestoredListeners {
  readonly #listeners = new Set<() => void>();

  constructor(private readonly onError: (error: Error) => void) {}

  add(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  tell(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        this.onError(asError(error));
      }
    }
  }
}
