// Driving one server with autocannon: every response body is checked, and a run with any bad answer is invalid.
import autocannon, { type Client, type RequestSpec } from 'autocannon';
import { cpuSeconds, disturbanceMeter } from './cpu';
import type { WireRequest } from './wire';

/** One request of a scenario; a scenario of several steps (an elicitation round) runs them in order on each connection. */
export interface Step {
  /** The request; a function builds it from what earlier steps of the same cycle stored in `context`. */
  request: WireRequest | ((context: Record<string, unknown>) => WireRequest);
  /** Whether the body is the expected answer; may store what the next step needs in `context`. */
  check(body: string, context: Record<string, unknown>): boolean;
}

export interface Scenario {
  steps: Step[];
}

export interface LoadOptions {
  connections: number;
  /** Seconds to run; or `amount` requests in all. */
  duration?: number;
  amount?: number;
  /** The server's process id, to measure its CPU time per cycle. */
  pid?: number;
}

export interface RunResult {
  requestsPerSec: number;
  /** Full cycles of the scenario's steps per second (rounds/s for a two-step round). */
  cyclesPerSec: number;
  /** Per request, in ms. */
  p50: number;
  p99: number;
  /** Per cycle: the sum of its requests' latencies, in ms. */
  cycleP50: number;
  cycleP99: number;
  /** The server process's CPU time per cycle, in µs (NaN when its pid is not known). */
  cpuPerCycle: number;
  checked: number;
  bad: number;
  /** The first body that did not match, to show what went wrong. */
  badSample?: string;
  errors: number;
  timeouts: number;
  non2xx: number;
  valid: boolean;
  /** Cores' worth of CPU used by processes the harness did not start, during the run; and the load average after it. */
  otherCores: number;
  load: number;
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export async function runLoad(url: string, scenario: Scenario, options: LoadOptions): Promise<RunResult> {
  const path = new URL(url).pathname;
  let checked = 0;
  let bad = 0;
  let badSample: string | undefined;
  const requests: RequestSpec[] = scenario.steps.map((step) => {
    const onResponse = (_status: number, body: string, context: Record<string, unknown>) => {
      checked++;
      if (step.check(body, context)) return;
      bad++;
      badSample ??= body.slice(0, 300);
    };
    if (typeof step.request !== 'function') return { ...step.request, path, onResponse };
    const build = step.request;
    return { method: 'POST', path, setupRequest: (request, context) => ({ ...request, ...build(context), path }), onResponse };
  });

  const latencies: number[] = [];
  const cycles: number[] = [];
  const partial = new Map<Client, number>();
  const last = scenario.steps.length - 1;
  const length = options.amount !== undefined ? { amount: options.amount } : { duration: options.duration ?? 5 };
  const instance = autocannon({ url, connections: options.connections, ...length, timeout: 10, requests });
  // autocannon emits 'response' before it moves on to the connection's next request, so the index is the answered step.
  instance.on('response', (client, _status, _bytes, ms) => {
    latencies.push(ms);
    const step = client.requestIterator.currentRequestIndex;
    const sum = (step === 0 ? 0 : (partial.get(client) ?? 0)) + ms;
    if (step === last) cycles.push(sum);
    else partial.set(client, sum);
  });
  const cpuBefore = options.pid ? cpuSeconds(options.pid) : NaN;
  const disturbance = disturbanceMeter();
  const result = await instance;
  const cpu = options.pid ? cpuSeconds(options.pid) - cpuBefore : NaN;
  const { otherCores, load } = disturbance();
  latencies.sort((a, b) => a - b);
  cycles.sort((a, b) => a - b);
  const seconds = result.duration;
  const valid = bad === 0 && checked > 0 && result.errors === 0 && result.timeouts === 0 && result.non2xx === 0;
  return {
    requestsPerSec: latencies.length / seconds,
    cyclesPerSec: cycles.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cycleP50: percentile(cycles, 50),
    cycleP99: percentile(cycles, 99),
    cpuPerCycle: (cpu * 1e6) / cycles.length,
    checked,
    bad,
    badSample,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    valid,
    otherCores,
    load,
  };
}
