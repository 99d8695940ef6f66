// A task's work runs in stretches: from its start (or a replay) to its next question or its end. Which instance runs a
// stretch is kept in the store with three tokens: the lease `w` (the running instance renews it), the stretch token `s`
// (set while a stretch runs; whoever finds the lease lapsed takes it and resumes the work) and the claim token `p`
// (work parked at a question; the first answer's instance takes it and replays the work). What must happen once is a
// `take`, atomic on every store. Here too: the stretches running in this process, which shutdown waits for or hands over.
import type { TaskParts } from './task-parts';

/** The lease, stretch and claim tokens of tasks in one store. */
export class StretchTokens {
  constructor(private readonly parts: TaskParts) {}

  /** A stretch starts (a new task's, or a replay's): its lease, then its token. */
  async begin(taskId: string, leaseMs: number, ttlMs: number): Promise<void> {
    await this.parts.mark(taskId, 'w', Math.min(leaseMs, ttlMs));
    await this.parts.mark(taskId, 's', ttlMs);
  }

  /** The running stretch renews its lease. */
  async renew(taskId: string, leaseMs: number): Promise<void> {
    await this.parts.mark(taskId, 'w', leaseMs);
  }

  /** The stretch ends at a question: the claim token first, so a reader between the two finds the task held. */
  async park(taskId: string, ttlMs: number): Promise<void> {
    await this.parts.mark(taskId, 'p', ttlMs);
    await this.parts.drop(taskId, 's');
  }

  /**
   * Claims parked work to replay it: of every instance that tries, exactly the first gets true. Its stretch's lease and
   * token go in before the take, so no reader ever finds the task with neither (a loser's are the winner's anyway).
   */
  async claim(taskId: string, leaseMs: number, ttlMs: number): Promise<boolean> {
    await this.begin(taskId, leaseMs, ttlMs);
    return this.parts.claim(taskId, 'p');
  }

  /** Someone runs the work (its lease), or it ended at a question and waits for an answer to claim it (parked). */
  async held(taskId: string): Promise<boolean> {
    return (await this.parts.has(taskId, 'w')) || this.parts.has(taskId, 'p');
  }

  /**
   * The lease lapsed on a running stretch: of every reader that finds it so, on any instance, exactly one gets true
   * and resumes the work, its new stretch's lease and token in the store. The token's taker looks at the lease again:
   * one there means another reader resumed the work first (its lease goes in before its new token), and the token
   * goes back.
   */
  async takeCut(taskId: string, leaseMs: number, ttlMs: number): Promise<boolean> {
    if (!(await this.parts.claim(taskId, 's'))) return false;
    if (await this.parts.has(taskId, 'w')) {
      await this.parts.mark(taskId, 's', ttlMs);
      return false;
    }
    await this.begin(taskId, leaseMs, ttlMs);
    return true;
  }

  /** This instance stops running the stretch without ending it: its lease goes, so the next reader resumes the work. */
  async handOver(taskId: string): Promise<void> {
    await this.parts.drop(taskId, 'w');
  }

  /** The task ended: nothing is left to claim or resume. */
  async ended(taskId: string): Promise<void> {
    await Promise.all([this.parts.drop(taskId, 'p'), this.parts.drop(taskId, 's')]);
  }
}

/** A stretch of work running in this process: `handOver` stops it here without ending its task. */
interface LiveStretch {
  handOver(): Promise<void>;
}

/** The stretches running in this process (parked work holds none): shutdown waits for them, then hands the rest over. */
export class LiveStretches {
  readonly #live = new Set<LiveStretch>();
  #emptied: (() => void) | undefined;

  add(stretch: LiveStretch): void {
    this.#live.add(stretch);
  }

  /** The stretch parked, ended or was handed over. */
  delete(stretch: LiveStretch): void {
    if (this.#live.delete(stretch) && this.#live.size === 0) this.#emptied?.();
  }

  /**
   * Waits up to `graceMs` for the running stretches to park or end, then hands over those left: their leases go,
   * their runs here stop, and another instance resumes each by replay on its next read. Resolves once handed over.
   */
  async drain(graceMs: number): Promise<void> {
    if (this.#live.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.#emptied = resolve;
      timer = setTimeout(resolve, graceMs);
    });
    clearTimeout(timer);
    this.#emptied = undefined;
    await Promise.all([...this.#live].map((stretch) => stretch.handOver().catch(() => undefined)));
  }
}
