// Writes one instance makes to one stored value, one after another: read, change and write back without losing a write.

/** Runs work per key in the order it was given; a failed run does not stop the next. Instance state, per key. */
export class SerialRuns {
  readonly #chains = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const run = (this.#chains.get(key) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => undefined);
    this.#chains.set(key, tail);
    try {
      return await run;
    } finally {
      // The last in line clears its key, so the map holds only keys with writes pending.
      if (this.#chains.get(key) === tail) this.#chains.delete(key);
    }
  }
}
