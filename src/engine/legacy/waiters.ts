// The questions this process asked that wait here for their answers: each a promise its call awaits, counted within
// elicitation.pending, and failed with a reason (never dropped in silence) when its session or the server ends.
import { NO_LIMITS, PendingCounts, type Asking, type PendingLimits, type RawAnswer } from '../../elicitation';
import { wireError } from '../../protocol';

/** The session of a waiting question ended (DELETE, or another instance found it gone): a JSON-RPC error on the call. */
export const sessionEndedError = (why: string) => wireError('SESSION_ENDED', `Session ended while the call waited: ${why}`);

/** One question waiting here. */
interface Waiter {
  readonly sessionId: string;
  /** What the call awaits; rejects when the question can no longer be answered. */
  readonly answer: Promise<RawAnswer>;
  deliver(answer: RawAnswer): void;
  fail(error: Error): void;
}

export class LocalWaiters {
  private readonly waiters = new Map<string, Waiter>();
  private readonly counts: PendingCounts;
  /** Who waits for the last question here to go (a shutdown's grace). */
  private idlers: (() => void)[] = [];

  constructor(limits: PendingLimits = NO_LIMITS) {
    this.counts = new PendingCounts(limits);
  }

  /** How many questions wait here, over every session. */
  get size(): number {
    return this.waiters.size;
  }

  /** How many questions wait here for the session. */
  waiting(sessionId: string): number {
    return this.counts.waiting(sessionId);
  }

  /**
   * Counts the question in (or throws past elicitation.pending's limits) and makes its waiter; `remove` undoes both.
   * Synchronous, so questions asked together cannot pass the limits together.
   */
  add(asking: Asking, elicitId: string): { waiter: Waiter; remove(): void } {
    const release = this.counts.reserve(asking);
    let deliver!: (answer: RawAnswer) => void;
    let fail!: (error: Error) => void;
    const answer = new Promise<RawAnswer>((resolve, reject) => ((deliver = resolve), (fail = reject)));
    answer.catch(() => undefined); // a question failed after its call stopped waiting is nobody's concern
    const waiter: Waiter = { sessionId: asking.sessionId, answer, deliver, fail };
    this.waiters.set(elicitId, waiter);
    let removed = false;
    return {
      waiter,
      remove: () => {
        if (removed) return;
        removed = true;
        release();
        if (this.waiters.get(elicitId) === waiter) this.waiters.delete(elicitId);
        if (this.waiters.size === 0) for (const idle of this.idlers.splice(0)) idle();
      },
    };
  }

  get(elicitId: string): Waiter | undefined {
    return this.waiters.get(elicitId);
  }

  /** Every waiter, by the id of its question. */
  entries(): [string, Waiter][] {
    return [...this.waiters];
  }

  /** Resolves once no question waits here (at once when none does). */
  idle(): Promise<void> {
    return this.waiters.size === 0 ? Promise.resolve() : new Promise((resolve) => this.idlers.push(resolve));
  }

  /** The session ended: its questions fail with a JSON-RPC error naming why. */
  failSession(sessionId: string, why: string): void {
    for (const waiter of [...this.waiters.values()]) if (waiter.sessionId === sessionId) waiter.fail(sessionEndedError(why));
  }

  /** Fails every question waiting here (the server is shutting down). */
  failAll(error: Error): void {
    for (const waiter of [...this.waiters.values()]) waiter.fail(error);
  }
}
