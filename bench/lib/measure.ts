// Measuring a row: each contender warmed up, then runs interleaved across contenders, summarised by medians.
import { runLoad, type RunResult, type Scenario } from './load';

export interface Settings {
  runs: number;
  /** Seconds per measured run. */
  duration: number;
  /** Seconds of warm-up per contender, not counted. */
  warmup: number;
  connections: number;
  /** A run during which other processes used more than this many cores is disturbed: run again (at most `retries`
   * times), then kept and counted as noisy. */
  maxOther: number;
  retries: number;
}

export interface Contender {
  label: string;
  url: string;
  /** The server's process, for its CPU time per request. */
  pid?: number;
  scenario: () => Scenario;
}

export interface Cell {
  label: string;
  runs: RunResult[];
  /** False when any run (warm-up included) had a bad body, an error or a non-2xx: then no number is reported. */
  valid: boolean;
  checked: number;
  bad: number;
  badSample?: string;
  median?: Medians;
  /** Median of the runs' other work (cores) and load average; runs kept although disturbed. */
  otherCores: number;
  load: number;
  noisy: number;
  /** Runs thrown away because other work disturbed them. */
  discarded: number;
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const KEYS = ['requestsPerSec', 'cyclesPerSec', 'p50', 'p99', 'cycleP50', 'cycleP99', 'cpuPerCycle'] as const;
export type Medians = Pick<RunResult, (typeof KEYS)[number]>;

export function summarise(label: string, runs: RunResult[], warmups: RunResult[] = [], maxOther = Infinity, discarded = 0): Cell {
  const all = [...warmups, ...runs];
  const valid = all.length > 0 && all.every((r) => r.valid);
  const cell: Cell = {
    label,
    runs,
    valid,
    checked: all.reduce((n, r) => n + r.checked, 0),
    bad: all.reduce((n, r) => n + r.bad, 0),
    badSample: all.find((r) => r.badSample)?.badSample,
    otherCores: runs.length ? median(runs.map((r) => r.otherCores)) : NaN,
    load: runs.length ? median(runs.map((r) => r.load)) : NaN,
    noisy: runs.filter((r) => r.otherCores > maxOther).length,
    discarded,
  };
  if (valid && runs.length) cell.median = Object.fromEntries(KEYS.map((k) => [k, median(runs.map((r) => r[k]))])) as unknown as Medians;
  return cell;
}

/** Runs `run` until other work stays under `settings.maxOther` cores, at most `settings.retries` more times; keeps the
 * least disturbed. Returns it and how many disturbed runs were thrown away. */
export async function undisturbed<R extends { otherCores: number; load: number }>(
  settings: Settings,
  run: () => Promise<R>,
  log: (line: string) => void,
): Promise<[R, number]> {
  let best = await run();
  let discarded = 0;
  for (let i = 0; i < settings.retries && best.otherCores > settings.maxOther; i++) {
    log(`    disturbed (other work ${best.otherCores.toFixed(2)} cores, load ${best.load.toFixed(2)}): run again`);
    const next = await run();
    discarded++;
    if (next.otherCores < best.otherCores) best = next;
  }
  return [best, discarded];
}

export async function measureRow(contenders: Contender[], settings: Settings, log: (line: string) => void = () => {}): Promise<Cell[]> {
  const warmups = new Map<string, RunResult[]>(contenders.map((c) => [c.label, []]));
  const runs = new Map<string, RunResult[]>(contenders.map((c) => [c.label, []]));
  const discarded = new Map<string, number>(contenders.map((c) => [c.label, 0]));
  if (settings.warmup > 0)
    for (const c of contenders)
      warmups
        .get(c.label)!
        .push(await runLoad(c.url, c.scenario(), { connections: settings.connections, duration: settings.warmup, pid: c.pid }));
  for (let i = 0; i < settings.runs; i++)
    for (const c of contenders) {
      const [result, thrown] = await undisturbed(
        settings,
        () => runLoad(c.url, c.scenario(), { connections: settings.connections, duration: settings.duration, pid: c.pid }),
        log,
      );
      runs.get(c.label)!.push(result);
      discarded.set(c.label, discarded.get(c.label)! + thrown);
      log(
        `  run ${i + 1}/${settings.runs} ${c.label}: ${Math.round(result.requestsPerSec)} req/s, p50 ${result.p50.toFixed(2)} ms, ${result.cpuPerCycle.toFixed(0)} µs CPU/cycle, other work ${result.otherCores.toFixed(2)} cores, load ${result.load.toFixed(2)}${result.valid ? '' : `, INVALID (${result.bad} bad bodies, ${result.errors} errors, ${result.non2xx} non-2xx)`}`,
      );
    }
  return contenders.map((c) => summarise(c.label, runs.get(c.label)!, warmups.get(c.label)!, settings.maxOther, discarded.get(c.label)!));
}
