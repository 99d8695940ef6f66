// One follower per task (and caller) in this process, shared by every stream that follows it: the task's channel is
// heard once, it is read again on each event (and every poll interval, where the channel reaches no other process),
// at most MAX_READS reads at once over all tasks, and each change goes to every stream that joined.
import { isTaskId, type TaskSnapshot } from './task-record';
import type { TaskStore } from './task-store';

/** Reads of tasks in flight at once, over every follower of the process: the rest wait their turn. */
const MAX_READS = 8;

/** A stream's part in a follower: told each snapshot read, and that the task is gone (ended and sent, or expired). */
interface TaskWatcher {
  seen(task: TaskSnapshot): void;
  gone(): void;
}

const ENDED: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** What a client sees change: the status, its message and the open questions (a settled answer alone is no news). */
export const looks = (task: TaskSnapshot): string =>
  JSON.stringify([task.status, task.statusMessage ?? null, (task.inputRequests ?? []).map(([key]) => key)]);

/** The followers of one task store (one server), and the bound on their reads. */
export class TaskFollowers {
  readonly #followers = new Map<string, Follower>();
  #reading = 0;
  readonly #waiting: (() => void)[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(readonly store: TaskStore) {}

  /**
   * Joins the follower of the caller's task (made on the first join): resolves with the task as last read and a leave
   * function, or undefined when it is not a live task of this caller (`owner`: undefined when anonymous).
   */
  async join(
    taskId: string,
    owner: string | undefined,
    watcher: TaskWatcher,
  ): Promise<{ last: TaskSnapshot; leave: () => void } | undefined> {
    // Fast path: an id of the wrong shape (`__proto__`, a probe) is no task, and nothing is heard for it.
    if (!isTaskId(taskId)) return undefined;
    // A Map keyed by a string built here: an id or owner named `__proto__` is a key like any other.
    const key = JSON.stringify([taskId, owner ?? null]);
    for (;;) {
      let follower = this.#followers.get(key);
      if (!follower) {
        follower = new Follower(this, taskId, owner, () => this.#drop(key));
        this.#followers.set(key, follower);
        this.#poll();
      }
      const last = await follower.start();
      if (!last) return undefined;
      if (follower.open) {
        follower.watchers.add(watcher);
        const joined = follower;
        return { last, leave: () => joined.leave(watcher) };
      }
      // It closed meanwhile: at the task's end (which `last` shows), or as its last stream left (a new one follows).
      if (ENDED.has(last.status)) return { last, leave: () => undefined };
    }
  }

  /** Runs one read when fewer than MAX_READS are in flight; a read that ends hands its place to the next waiting. */
  async read<T>(read: () => Promise<T>): Promise<T> {
    if (this.#reading >= MAX_READS) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#reading++;
    try {
      return await read();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#reading--;
    }
  }

  /** A channel that stays in this process: changes made on other instances show at the next read, one timer for all. */
  #poll(): void {
    if (this.#timer || this.store.channelsReachOtherInstances) return;
    this.#timer = setInterval(() => {
      for (const follower of this.#followers.values()) follower.look();
    }, this.store.limits.pollIntervalMs);
  }

  #drop(key: string): void {
    this.#followers.delete(key);
    if (this.#followers.size > 0) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

/** One task followed for some streams: one subscription, one read at a time (and one more asked for meanwhile). */
class Follower {
  readonly watchers = new Set<TaskWatcher>();
  open = true;
  #first: Promise<TaskSnapshot | undefined> | undefined;
  #last: TaskSnapshot | undefined;
  #unlisten: Promise<() => Promise<void>> | undefined;
  #reading = false;
  #again = false;

  constructor(
    private readonly followers: TaskFollowers,
    private readonly taskId: string,
    private readonly owner: string | undefined,
    private readonly onClose: () => void,
  ) {}

  /** Listens, then reads the task once (a change between the two is heard): the task as it is, or undefined. */
  start(): Promise<TaskSnapshot | undefined> {
    this.#first ??= (async () => {
      this.#unlisten = this.followers.store.listen(this.taskId, () => this.look());
      await this.#unlisten;
      this.#last = await this.followers.read(() => this.followers.store.snapshot(this.taskId, this.owner));
      if (!this.#last) this.#close();
      return this.#last;
    })().catch((error: unknown) => {
      this.#close();
      throw error;
    });
    return this.#first.then(() => this.#last);
  }

  /** Reads the task again (once more after the read in flight, when one is), and tells the watchers. */
  look(): void {
    if (!this.open || !this.#first) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = true;
    void this.#first
      .then(() => this.followers.read(() => this.followers.store.snapshot(this.taskId, this.owner)))
      .then((task) => {
        if (!this.open) return;
        if (!task) return this.#close(); // expired: its watchers are told it is gone
        const before = this.#last;
        this.#last = task;
        // Fast path: a read that finds the task as it looked tells nobody (each watcher was told, or joined with it).
        if (before && looks(before) === looks(task)) return;
        for (const watcher of this.watchers) watcher.seen(task);
        if (ENDED.has(task.status)) this.#close();
      })
      // A store away for a moment: the next event or poll reads again.
      .catch(() => undefined)
      .finally(() => {
        this.#reading = false;
        if (this.#again) {
          this.#again = false;
          this.look();
        }
      });
  }

  leave(watcher: TaskWatcher): void {
    this.watchers.delete(watcher);
    if (this.watchers.size === 0) this.#close();
  }

  #close(): void {
    if (!this.open) return;
    this.open = false;
    this.onClose();
    for (const watcher of [...this.watchers]) watcher.gone();
    this.watchers.clear();
    void this.#unlisten?.then((unlisten) => unlisten()).catch(() => undefined);
  }
}
