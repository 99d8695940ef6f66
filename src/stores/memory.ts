// The memory backend: one process's Map with expiry, and in-process publish/subscribe.
import { LocalChannels } from './local-channels';
import type { MessageHandler, StoreBackend } from './types';

/** The value the stores' users write for a token (a live mark, a lease, a claim, an open question): most entries. */
const TOKEN = '1';
/** How many entries each write looks at for expiry: more than the one it may add, so every pass over them ends. */
const SWEEP_STEP = 2;
/** How far the expiries' origin may fall behind before it moves up to now: they stay small integers (below 2^30 ms). */
const REBASE_AFTER_MS = 2 ** 29;

/** A value, and when it expires: ms after the store's origin, or `undefined` for never. */
interface Entry {
  readonly value: string;
  expiresAt: number | undefined;
}

/**
 * What a key holds: an Entry, or for a token with a TTL only its expiry. Expiries count from the store's origin, so they
 * are small integers that V8 keeps in the Map's slot or the Entry's field; a Date.now() figure would be a boxed number
 * of 16 bytes, and a token's Entry about 40 bytes more.
 */
type Held = Entry | number;

const expiryOf = (held: Held): number | undefined => (typeof held === 'number' ? held : held.expiresAt);

export class MemoryStore implements StoreBackend {
  readonly type = 'memory';
  readonly supportsPubSub = false;
  readonly distributed = false;
  private readonly entries = new Map<string, Held>();
  private readonly channels = new LocalChannels();
  /** Where expiries are counted from. */
  private origin = Date.now();
  /** Where the sweep of expired entries stands: each write moves it on by SWEEP_STEP entries. */
  private sweeping: MapIterator<[string, Held]> | undefined;

  async get(key: string): Promise<string | undefined> {
    return this.live(key);
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    const now = Date.now();
    const expiresAt = ttlMs === undefined ? undefined : now + ttlMs - this.origin;
    this.entries.set(key, value === TOKEN && expiresAt !== undefined ? expiresAt : { value, expiresAt });
    this.sweep(now);
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async take(key: string): Promise<string | undefined> {
    const value = this.live(key);
    this.entries.delete(key);
    return value;
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
    this.sweeping = undefined;
  }

  /** An expired entry is never read: it is dropped when read, or by the sweep, whichever comes first. */
  private live(key: string): string | undefined {
    const held = this.entries.get(key);
    if (held === undefined) return undefined;
    const expiresAt = expiryOf(held);
    if (expiresAt !== undefined && expiresAt <= Date.now() - this.origin) {
      this.entries.delete(key);
      return undefined;
    }
    return typeof held === 'number' ? TOKEN : held.value;
  }

  /**
   * Drops the expired among the next SWEEP_STEP entries, so one that nobody reads again (a lapsed lease) does not stay:
   * a few steps per write and no timers, so nothing keeps a process or isolate alive.
   */
  private sweep(now: number): void {
    const due = now - this.origin;
    for (let step = 0; step < SWEEP_STEP; step++) {
      if (this.sweeping === undefined) {
        // A pass starts: first, once in days, the origin moves up to now (every expiry counted again, in one go).
        if (due > REBASE_AFTER_MS) return this.rebase(now);
        this.sweeping = this.entries.entries();
      }
      const next = this.sweeping.next();
      if (next.done) {
        this.sweeping = undefined;
        return;
      }
      const [key, held] = next.value;
      const expiresAt = expiryOf(held);
      if (expiresAt !== undefined && expiresAt <= due) this.entries.delete(key);
    }
  }

  private rebase(now: number): void {
    const by = now - this.origin;
    // Setting a key the Map holds keeps its place, so the loop sees each entry once.
    for (const [key, held] of this.entries) {
      if (typeof held === 'number') this.entries.set(key, held - by);
      else if (held.expiresAt !== undefined) held.expiresAt -= by;
    }
    this.origin = now;
  }
}

/** A store in this process's memory. */
export const memoryStore = (): StoreBackend => new MemoryStore();
