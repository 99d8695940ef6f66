// The question store: records of questions waiting for a person, on any StoreBackend, named by QuestionKeys and sealed
// by QuestionSeal. Its three users (the older era's pending questions, tasks, the inbox's questions) keep here what they
// keep, claim here what must happen once, and recover here an answer whose publish was lost.
import type { MessageHandler, StoreBackend } from '../types';
import type { QuestionKeys } from './keys';
import type { QuestionSeal } from './seal';

/**
 * Where a user's records were before the question store, read only (writes go to the new names): a record written by
 * an instance of an older release is found and opened until it expires. Each user's says when it can go.
 */
export interface LegacyRecords {
  name(kind: string, owner: string, part: string): string | Promise<string | undefined> | undefined;
  open(raw: string, owner: string, key: string): Promise<unknown>;
}

/** A value found under one of a record's names. */
interface Found {
  key: string;
  raw: string;
  legacy?: true;
}

export class QuestionRecords {
  constructor(
    readonly backend: StoreBackend,
    readonly keys: QuestionKeys,
    readonly sealing: QuestionSeal,
    private readonly legacy?: LegacyRecords,
  ) {}

  /** Where a record is written. */
  name(kind: string, owner: string, part = ''): Promise<string> {
    return this.keys.name(kind, owner, part);
  }

  /** Every name a record may be under: each listed secret's, then its legacy name. */
  async names(kind: string, owner: string, part = ''): Promise<{ key: string; legacy?: true }[]> {
    const names = (await this.keys.names(kind, owner, part)).map((key) => ({ key }));
    const legacy = this.legacy?.name(kind, owner, part);
    // Fast path: a record that has no legacy name (its user says so) is looked for under its names alone.
    const old = legacy === undefined ? undefined : await legacy;
    return old === undefined ? names : [...names, { key: old, legacy: true }];
  }

  /** Seals a value under the record's name and stores it; resolves with the name. */
  async put(kind: string, owner: string, part: string, value: unknown, ttlMs: number): Promise<string> {
    const key = await this.name(kind, owner, part);
    await this.backend.set(key, await this.sealing.seal(value, owner, key), Math.max(1, ttlMs));
    return key;
  }

  /** A token (a plain mark, never sealed: it says only that something is open or held). */
  async mark(kind: string, owner: string, part: string, ttlMs: number, value = '1'): Promise<void> {
    await this.backend.set(await this.name(kind, owner, part), value, Math.max(1, ttlMs));
  }

  /** The first value under any of the record's names; `take` removes it (of several takers, one gets it). */
  async find(kind: string, owner: string, part = '', take = false): Promise<Found | undefined> {
    for (const { key, legacy } of await this.names(kind, owner, part)) {
      const raw = await (take ? this.backend.take(key) : this.backend.get(key));
      if (raw !== undefined) return legacy ? { key, raw, legacy } : { key, raw };
    }
    return undefined;
  }

  /** What a found value holds, opened as it was sealed (its legacy format when found under a legacy name). */
  async open<T>(found: Found | undefined, owner: string): Promise<T | undefined> {
    if (!found) return undefined;
    if (found.legacy) return (await this.legacy?.open(found.raw, owner, found.key)) as T | undefined;
    return this.sealing.open<T>(found.raw, owner, found.key);
  }

  async read<T>(kind: string, owner: string, part = ''): Promise<T | undefined> {
    return this.open<T>(await this.find(kind, owner, part), owner);
  }

  async has(kind: string, owner: string, part = ''): Promise<boolean> {
    return (await this.find(kind, owner, part)) !== undefined;
  }

  /**
   * The first-answer-wins claim: takes the record's token, under whichever name it is. Of every caller, on every
   * instance, exactly one gets true: `take` is atomic on each backend (GETDEL or a Lua script on Redis and Redis
   * Cluster, a transaction on SQLite, one owner in memory and in a Durable Object).
   */
  async claim(kind: string, owner: string, part = ''): Promise<boolean> {
    return (await this.find(kind, owner, part, true)) !== undefined;
  }

  /** Takes a value for one caller only (see claim), opened. */
  async take<T>(kind: string, owner: string, part = ''): Promise<T | undefined> {
    return this.open<T>(await this.find(kind, owner, part, true), owner);
  }

  /** Removes the record under every name it may have. */
  async drop(kind: string, owner: string, part = ''): Promise<void> {
    await Promise.all((await this.names(kind, owner, part)).map(({ key }) => this.backend.delete(key)));
  }

  /**
   * The one recovery of a lost publish: the answer is kept under its own key (`kind`) before it is published on
   * `channel`, so a waiter whose subscription was down or not yet live finds it (see `wait`). Resolves with how many
   * subscribers the publish reached.
   */
  async keepAndPublish(
    answer: { kind: string; owner: string; part: string; value: unknown; ttlMs: number },
    channel: string,
    message: string,
  ): Promise<number> {
    await this.put(answer.kind, answer.owner, answer.part, answer.value, answer.ttlMs);
    return this.backend.publish(channel, message);
  }

  /**
   * The waiter's side: listens on `channel`, then looks once (an answer kept before it listened), and again each time
   * the store's connection is back (published while the subscription was down). `look` reads the kept answer.
   */
  async wait(channel: string, onMessage: MessageHandler, look: () => void): Promise<() => Promise<void>> {
    const stop = await this.backend.subscribe(channel, onMessage);
    const unwatch = this.backend.onRestored?.(look);
    look();
    return async () => {
      unwatch?.();
      await stop();
    };
  }
}
