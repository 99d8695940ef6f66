// Each caller's index of tasks: the cap on a caller's live tasks is counted here, and 2025-11-25's tasks/list reads it.
// One sealed value per caller, changed one write at a time on this instance.
import { LimitError } from '../../protocol';
import type { StoreBackend } from '../../stores';
import type { TaskNames } from './task-names';
import type { TaskSeal } from './task-seal';
import { SerialRuns } from './task-serial';

/** An owner index entry: a task id, when it expires, and 1 while it has not ended. */
type IndexEntry = [string, number, 0 | 1];
/** Ended tasks an owner's index keeps listed (the newest), so a busy caller's index stays small. */
const LISTED_ENDED = 100;
/** How long a caller at its cap is told to wait: a task of theirs has to end first, which polling will show. */
const CAP_RETRY_AFTER_S = 30;

/** The entries to keep: every live one, and the newest ended ones. */
function trimmed(entries: IndexEntry[]): IndexEntry[] {
  const ended = entries.filter(([, , live]) => live === 0);
  const drop = new Set(ended.slice(0, Math.max(0, ended.length - LISTED_ENDED)));
  return entries.filter((entry) => !drop.has(entry));
}

const isIndexEntry = (entry: unknown): entry is IndexEntry =>
  Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number' && (entry[2] === 0 || entry[2] === 1);

/** The owners' indexes (`task-owner:<owner digest>`), in the task store's backend, sealed with its secret. */
export class OwnerIndex {
  readonly #serial = new SerialRuns();

  constructor(
    private readonly backend: StoreBackend,
    private readonly names: TaskNames,
    private readonly sealing: TaskSeal,
    private readonly maxPerOwner: number,
  ) {}

  /**
   * Lists a new live task under its owner once `store` has stored it, or throws a LimitError (429, Retry-After) before
   * that when the owner already holds `maxPerOwner` live tasks. Admissions of one owner run one at a time here.
   */
  async admit(owner: string | undefined, task: { taskId: string; expiresAt: number }, store: () => Promise<void>): Promise<void> {
    const index = await this.names.owner(owner);
    await this.#serial.run(index, async () => {
      const now = Date.now();
      const entries = await this.#live(index, now);
      const max = this.maxPerOwner;
      if (entries.filter(([, , live]) => live === 1).length >= max) {
        const who = owner === undefined ? 'anonymous callers (without a token they count as one caller)' : 'this caller';
        throw new LimitError(
          `Too many tasks still running for ${who}: at most ${max} (tasks.maxPerCaller). Cancel one or wait for one to end, then try again`,
          CAP_RETRY_AFTER_S,
          'caller',
          { limit: 'tasks.maxPerCaller', max },
        );
      }
      await store();
      await this.#write(index, trimmed([...entries, [task.taskId, task.expiresAt, 1]]), task.expiresAt - now);
    });
  }

  /** The task ended: it no longer counts towards its owner's cap, and stays listed while among the newest ended. */
  async ended(owner: string | undefined, taskId: string): Promise<void> {
    const index = await this.names.owner(owner);
    await this.#serial.run(index, async () => {
      const now = Date.now();
      const entries = await this.#live(index, now);
      const kept = trimmed(entries.map(([id, until, live]): IndexEntry => [id, until, id === taskId ? 0 : live]));
      const longest = Math.max(0, ...kept.map(([, until]) => until - now));
      if (longest > 0) await this.#write(index, kept, longest);
    });
  }

  /** The ids of the owner's listed tasks that have not expired, in the order they were created. */
  async taskIds(owner: string | undefined): Promise<string[]> {
    return (await this.#live(await this.names.owner(owner), Date.now())).map(([id]) => id);
  }

  async #live(name: string, now: number): Promise<IndexEntry[]> {
    const entries = await this.sealing.open<unknown>(await this.backend.get(name), name);
    return Array.isArray(entries) ? entries.filter(isIndexEntry).filter(([, until]) => until > now) : [];
  }

  async #write(name: string, entries: IndexEntry[], ttlMs: number): Promise<void> {
    await this.backend.set(name, await this.sealing.seal(entries, name), ttlMs);
  }
}
