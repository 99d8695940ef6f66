// What one process holds of tasks, in total: the live tasks it runs (tasks.maxTotal: past it, 503) and the ended tasks
// whose end it wrote, by number and by bytes (tasks.ended.maxTotal, maxBytesTotal: past them, the oldest are forgotten).
import { LimitError } from '../../protocol';

/** The process's totals. */
interface TotalLimits {
  maxTotal: number;
  maxEndedTotal: number;
  maxEndedBytesTotal: number;
}

/** How long a process at its cap tells a caller to wait: some task has to end first. */
const FULL_RETRY_AFTER_S = 30;

/** The totals of one task store (one server), kept in this process's memory: a few numbers per task. */
export class TaskLedger {
  readonly #live = new Set<string>();
  /** Ended tasks in the order they ended: when each expires and its bytes. */
  readonly #ended = new Map<string, { until: number; bytes: number }>();
  #endedBytes = 0;

  constructor(private readonly limits: TotalLimits) {}

  /** Counts a new live task in, or throws a LimitError (503, Retry-After) when the process runs `maxTotal` already. */
  admit(taskId: string): void {
    const max = this.limits.maxTotal;
    if (this.#live.size >= max)
      throw new LimitError(
        `The server runs as many tasks as it allows (${max}, tasks.maxTotal): retry after ${FULL_RETRY_AFTER_S} s`,
        FULL_RETRY_AFTER_S,
        'server',
        { limit: 'tasks.maxTotal', max },
      );
    this.#live.add(taskId);
  }

  /** The task no longer runs here (it ended, or its work stopped). */
  release(taskId: string): void {
    this.#live.delete(taskId);
  }

  /**
   * The task ended here, keeping `bytes` until `until`: returns the ids of the oldest ended tasks past the totals, to
   * forget now (the ones that expired meanwhile leave the count on their own).
   */
  ended(taskId: string, bytes: number, until: number): string[] {
    this.release(taskId);
    const now = Date.now();
    // In the order they ended, which is about the order they expire: the first still kept stops the sweep.
    for (const [id, kept] of this.#ended) {
      if (kept.until > now) break;
      this.#drop(id, kept.bytes);
    }
    this.#ended.set(taskId, { until, bytes });
    this.#endedBytes += bytes;
    const forget: string[] = [];
    const { maxEndedTotal, maxEndedBytesTotal } = this.limits;
    for (const [id, kept] of this.#ended) {
      if (this.#ended.size <= maxEndedTotal && this.#endedBytes <= maxEndedBytesTotal) break;
      this.#drop(id, kept.bytes);
      forget.push(id);
    }
    return forget;
  }

  #drop(taskId: string, bytes: number): void {
    this.#ended.delete(taskId);
    this.#endedBytes -= bytes;
  }
}
