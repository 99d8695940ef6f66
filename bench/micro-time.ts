// The timing the micro-benchmarks share (state-crypto.ts, validators.ts): one operation, many times, in one process.

/** Median over 7 batches of µs per call. */
export function microseconds(what: () => unknown, count = 100_000): number {
  const batches: number[] = [];
  for (let b = 0; b < 7; b++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < count; i++) what();
    batches.push(Number(process.hrtime.bigint() - started) / count / 1000);
  }
  return batches.sort((x, y) => x - y)[3]!;
}
