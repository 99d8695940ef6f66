// What the numbers were measured on: cores, CPU model, Node version and load.
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg, release, type } from 'node:os';

export function machine() {
  let cpuModel = 'unknown CPU';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpuModel;
  } catch {}
  return { cpus: availableParallelism(), cpuModel, node: process.version, os: `${type()} ${release()}`, load: loadavg()[0]! };
}
