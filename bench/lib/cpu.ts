// The CPU time a process has used (user + system), from /proc: a cost per request that the machine's load hardly moves.
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** Seconds of CPU the process has used so far, or NaN where /proc is not there. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** Seconds of CPU the whole machine has been busy (all cores, from /proc/stat), or NaN without /proc. */
export function machineBusySeconds(): number {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
    const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
    return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** The processes whose parent is `pid` (the servers, redis-server and workerd the harness started). */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
      } catch {}
    }
  } catch {}
  return children;
}

export interface Disturbance {
  /** Cores' worth of CPU that processes other than the harness and what it started used during the run. */
  otherCores: number;
  /** The machine's 1-minute load average at the end of the run. */
  load: number;
}

/** Starts measuring what else used the machine; the function it returns stops and reports. */
export function disturbanceMeter(): () => Disturbance {
  const ours = () => cpuSeconds(process.pid) + childrenOf(process.pid).reduce((sum, pid) => sum + (cpuSeconds(pid) || 0), 0);
  const [busy0, ours0, t0] = [machineBusySeconds(), ours(), performance.now()];
  return () => {
    const seconds = (performance.now() - t0) / 1000;
    const other = machineBusySeconds() - busy0 - (ours() - ours0);
    return { otherCores: Math.max(0, other / seconds), load: loadavg()[0]! };
  };
}
