// The memory backend: one process's Map with expiry, and in-process publish/subscribe.
import type { MessageHandler, StoreBackend } from './types';

interface Entry {
  value: string;
  expiresAt?: number;
}

export class MemoryStore implements StoreBackend {
  readonly type = 'memory';
  readonly supportsPubSub = false;
  readonly distributed = false;
  private readonly entries = new Map<string, Entry>();
  private readonly channels = new Map<string, Set<MessageHandler>>();

  async get(key: string): Promise<string | undefined> {
    return this.live(key)?.value;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.entries.set(key, ttlMs === undefined ? { value } : { value, expiresAt: Date.now() + ttlMs });
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async take(key: string): Promise<string | undefined> {
    const entry = this.live(key);
    this.entries.delete(key);
    return entry?.value;
  }

  async publish(channel: string, message: string): Promise<void> {
    for (const handler of this.channels.get(channel) ?? []) queueMicrotask(() => handler(message));
  }

  async subscribe(channel: string, onMessage: MessageHandler): Promise<() => Promise<void>> {
    let handlers = this.channels.get(channel);
    if (!handlers) this.channels.set(channel, (handlers = new Set()));
    // Wrap, so subscribing the same function twice gives two subscriptions.
    const handler: MessageHandler = (m) => onMessage(m);
    handlers.add(handler);
    return async () => {
      handlers.delete(handler);
      if (handlers.size === 0) this.channels.delete(channel);
    };
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.channels.clear();
  }

  /** Expired entries are dropped when read: no timers, so nothing keeps a process or isolate alive. */
  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }
}

/** A store in this process's memory. */
export const memoryStore = (): StoreBackend => new MemoryStore();
