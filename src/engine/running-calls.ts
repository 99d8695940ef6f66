// The 2026-07-28 calls a server is answering, each with the way to end it: at shutdown they get the grace period to
// finish, then those left end with a JSON-RPC error under their own id instead of a cut connection.

/**
 * One call: `end` fires its tool's signal and makes its answer `error`. The other fields are the table's: the calls
 * are a linked list through them, so adding and removing one (twice per request) allocates and rehashes nothing (a Set
 * that grows and shrinks with the calls in flight cost a round about 10% more instructions: bench/callgrind-in-process.ts).
 */
export interface RunningCall {
  end(error: Error): void;
  running: boolean;
  previousRunning: RunningCall | undefined;
  nextRunning: RunningCall | undefined;
}

export class RunningCalls {
  #first: RunningCall | undefined;
  #count = 0;
  private emptied: (() => void) | undefined;

  add(call: RunningCall): void {
    call.running = true;
    call.previousRunning = undefined;
    call.nextRunning = this.#first;
    if (this.#first) this.#first.previousRunning = call;
    this.#first = call;
    this.#count++;
  }

  /** The call answered: no longer one to end (a second time changes nothing). */
  delete(call: RunningCall): void {
    if (!call.running) return;
    call.running = false;
    const { previousRunning: previous, nextRunning: next } = call;
    if (previous) previous.nextRunning = next;
    else this.#first = next;
    if (next) next.previousRunning = previous;
    call.previousRunning = call.nextRunning = undefined;
    if (--this.#count === 0) this.emptied?.();
  }

  /**
   * Waits until every call has answered or `graceMs` has passed, then ends those left with `error()`; resolves once
   * their answers have gone out (a turn later), so a listener closed after it cuts nothing.
   */
  async end(graceMs: number, error: () => Error): Promise<void> {
    if (this.#count === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.emptied = resolve;
      timer = setTimeout(resolve, graceMs);
    });
    clearTimeout(timer);
    this.emptied = undefined;
    if (this.#count === 0) return;
    const reason = error();
    const left: RunningCall[] = [];
    for (let call = this.#first; call; call = call.nextRunning) left.push(call);
    for (const call of left) {
      this.delete(call);
      call.end(reason);
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
