// Each caller's index of tasks: the caps on a caller's live tasks and on the ended ones it keeps are counted here, and
// 2025-11-25's tasks/list reads it. One sealed value per caller, changed one write at a time on this instance.
import { LimitError } from '../../protocol';
import type { StoreBackend } from '../../stores';
import type { TaskParts } from './task-parts';
import { SerialRuns } from './task-serial';

/** An index entry: a task id, when it expires, 1 while it has not ended, and the bytes kept for it once it ended. */
type IndexEntry = [string, number, 0 | 1, number?];
/** How long a caller at its cap is told to wait: a task of theirs has to end first, which polling will show. */
const CAP_RETRY_AFTER_S = 30;

/** What one caller may hold: live tasks, and ended tasks kept (by number and by bytes; the oldest go first). */
interface CallerLimits {
  maxPerOwner: number;
  maxEnded: number;
  maxEndedBytes: number;
}

/** The ended entries to drop, oldest first, so that at most `maxEnded` remain and their bytes fit `maxEndedBytes`. */
function overflow(entries: IndexEntry[], { maxEnded, maxEndedBytes }: CallerLimits): Set<IndexEntry> {
  const ended = entries.filter(([, , live]) => live === 0);
  let bytes = ended.reduce((sum, [, , , size]) => sum + (size ?? 0), 0);
  const drop = new Set<IndexEntry>();
  for (const entry of ended) {
    if (ended.length - drop.size <= maxEnded && bytes <= maxEndedBytes) break;
    drop.add(entry);
    bytes -= entry[3] ?? 0;
  }
  return drop;
}

const liveCount = (entries: IndexEntry[]) => entries.filter(([, , live]) => live === 1).length;

const isIndexEntry = (entry: unknown): entry is IndexEntry =>
  Array.isArray(entry) &&
  typeof entry[0] === 'string' &&
  typeof entry[1] === 'number' &&
  (entry[2] === 0 || entry[2] === 1) &&
  (entry[3] === undefined || typeof entry[3] === 'number');

/** The callers' indexes (`task-owner:<digest>`, named by TaskParts.owner), in the task store's backend, sealed with its secret. */
export class OwnerIndex {
  readonly #serial = new SerialRuns();

  /**
   * `hasEnded` says whether a task's end is stored. Instances change an index without a lock between them, so an end
   * written on one instance can be overwritten by an admission read before it on another: the index may call a task
   * live that has ended. At the cap, before refusing, each task it calls live is looked up, and the ended are counted as
   * such (their bytes unknown, as 0): a caller is never held at the cap by tasks that ended elsewhere.
   */
  constructor(
    private readonly backend: StoreBackend,
    private readonly sealing: Pick<TaskParts, 'sealAt' | 'openAt'>,
    private readonly limits: CallerLimits,
    private readonly hasEnded: (taskId: string) => Promise<boolean>,
  ) {}

  /**
   * Lists a new live task in the caller's index once `store` has stored it, or throws a LimitError (429, Retry-After)
   * before that when the caller already holds `maxPerOwner` live tasks (`who` says whose in its message). Admissions
   * to one index run one at a time here.
   */
  async admit(index: string, who: string, task: { taskId: string; expiresAt: number }, store: () => Promise<void>): Promise<void> {
    await this.#serial.run(index, async () => {
      const now = Date.now();
      const max = this.limits.maxPerOwner;
      let entries = await this.#live(index, now);
      if (liveCount(entries) >= max) entries = await this.#settled(entries);
      if (liveCount(entries) >= max)
        throw new LimitError(
          `Too many tasks still running for ${who}: at most ${max} (tasks.maxPerCaller). Cancel one or wait for one to end, then try again`,
          CAP_RETRY_AFTER_S,
          'caller',
          { limit: 'tasks.maxPerCaller', max },
        );
      await store();
      await this.#write(index, [...entries, [task.taskId, task.expiresAt, 1]], task.expiresAt - now);
    });
  }

  /**
   * The task ended, keeping `bytes` in the store: it no longer counts towards the caller's live cap, and counts
   * among its ended ones. Resolves with the ids of the caller's oldest ended tasks past its bounds, to forget now.
   */
  async ended(index: string, taskId: string, bytes: number): Promise<string[]> {
    return this.#serial.run(index, async () => {
      const now = Date.now();
      const entries = (await this.#live(index, now)).map(
        (entry): IndexEntry => (entry[0] === taskId ? [taskId, entry[1], 0, bytes] : entry),
      );
      const drop = overflow(entries, this.limits);
      const kept = entries.filter((entry) => !drop.has(entry));
      const longest = Math.max(0, ...kept.map(([, until]) => until - now));
      if (longest > 0) await this.#write(index, kept, longest);
      else await this.backend.delete(index);
      return [...drop].map(([id]) => id);
    });
  }

  /** The ids of the caller's listed tasks that have not expired, in the order they were created. */
  async taskIds(index: string): Promise<string[]> {
    return (await this.#live(index, Date.now())).map(([id]) => id);
  }

  /** The entries with each one called live looked up: those whose end is stored are ended. */
  async #settled(entries: IndexEntry[]): Promise<IndexEntry[]> {
    const ended = await Promise.all(entries.map(([id, , live]) => live === 1 && this.hasEnded(id)));
    return entries.map((entry, i): IndexEntry => (ended[i] ? [entry[0], entry[1], 0, entry[3] ?? 0] : entry));
  }

  async #live(name: string, now: number): Promise<IndexEntry[]> {
    const entries = await this.sealing.openAt<unknown>(await this.backend.get(name), name);
    return Array.isArray(entries) ? entries.filter(isIndexEntry).filter(([, until]) => until > now) : [];
  }

  async #write(name: string, entries: IndexEntry[], ttlMs: number): Promise<void> {
    await this.backend.set(name, await this.sealing.sealAt(entries, name), ttlMs);
  }
}
