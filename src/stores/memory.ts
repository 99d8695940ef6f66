// The memory backend: one process's Map with expiry, and in-process publish/subscribe.
import { LocalChannels } from './local-channels';
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
  private readonly channels = new LocalChannels();

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

  async publish(channel: string, message: string): Promise<number> {
    return this.channels.publish(channel, message);
  }

  async subscribe(channel: string, onMessage: MessageHandler): Promise<() => Promise<void>> {
    return this.channels.subscribe(channel, onMessage);
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
