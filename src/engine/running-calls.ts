// The 2026-07-28 calls a server is answering, each with the way to end it: at shutdown they get the grace period to
// finish, then those left end with a JSON-RPC error under their own id instead of a cut connection.

/** Ends one call: its tool's signal fires and its answer becomes `error`. */
type EndCall = (error: Error) => void;

export class RunningCalls {
  private readonly ends = new Set<EndCall>();
  private emptied: (() => void) | undefined;

  add(end: EndCall): void {
    this.ends.add(end);
  }

  /** The call answered: no longer one to end. */
  delete(end: EndCall): void {
    if (this.ends.delete(end) && this.ends.size === 0) this.emptied?.();
  }

  /**
   * Waits until every call has answered or `graceMs` has passed, then ends those left with `error()`; resolves once
   * their answers have gone out (a turn later), so a listener closed after it cuts nothing.
   */
  async end(graceMs: number, error: () => Error): Promise<void> {
    if (this.ends.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.emptied = resolve;
      timer = setTimeout(resolve, graceMs);
    });
    clearTimeout(timer);
    this.emptied = undefined;
    if (this.ends.size === 0) return;
    const reason = error();
    for (const end of [...this.ends]) end(reason);
    this.ends.clear();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
