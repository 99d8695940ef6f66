// Printing the results: one markdown table, with ratios to Parley and the goals beside what was measured.
import type { Cell } from './measure';

export interface TableRow {
  row: string;
  measure: string;
  server: string;
  throughput: string;
  p50: string;
  p99: string;
  vsParley: string;
  cpu: string;
  /** The load average and the other work (cores) during the measured runs. */
  load: string;
  bodies: string;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
export const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '–');
export const times = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '–');

const bodies = (cell: Cell) => (cell.valid ? `${int(cell.checked)} ok` : `INVALID: ${int(cell.bad)} of ${int(cell.checked)} bad`);
/** "load 1.2, other 0.05" (medians over the runs), with the runs thrown away or kept noisy. */
export const loadCell = (load: number, other: number, discarded = 0, noisy = 0) =>
  Number.isFinite(load)
    ? `${load.toFixed(1)} · ${other.toFixed(2)}${discarded ? `, ${discarded} rerun` : ''}${noisy ? `, ${noisy} noisy` : ''}`
    : '';

/** Table rows for one measured row; `unit` 'round' reports cycles (rounds) rather than requests. */
export function cellRows(row: string, measure: string, cells: Cell[], unit: 'req' | 'round'): TableRow[] {
  const parley = cells[0]?.median;
  const rate = (c: Cell) => (unit === 'round' ? c.median!.cyclesPerSec : c.median!.requestsPerSec);
  return cells.map((cell, i) => {
    const m = cell.median;
    const base = {
      row: i === 0 ? row : '',
      measure: i === 0 ? measure : '',
      server: cell.label,
      bodies: bodies(cell),
      load: loadCell(cell.load, cell.otherCores, cell.discarded, cell.noisy),
    };
    if (!m) return { ...base, throughput: 'invalid', p50: '–', p99: '–', vsParley: '–', cpu: '–' };
    return {
      ...base,
      throughput: `${int(rate(cell))} ${unit === 'round' ? 'rounds' : 'req'}/s`,
      p50: ms(unit === 'round' ? m.cycleP50 : m.p50),
      p99: ms(unit === 'round' ? m.cycleP99 : m.p99),
      vsParley: parley ? times(rate(cell) / (unit === 'round' ? parley.cyclesPerSec : parley.requestsPerSec)) : '–',
      cpu: Number.isFinite(m.cpuPerCycle) ? int(m.cpuPerCycle) : '–',
    };
  });
}

const HEAD: TableRow = {
  row: '#',
  measure: 'Measure',
  server: 'Server',
  throughput: 'Throughput',
  p50: 'p50 ms',
  p99: 'p99 ms',
  vsParley: 'vs Parley',
  cpu: 'Server CPU µs each',
  load: 'Load · other cores',
  bodies: 'Bodies checked',
};

export function markdownTable(rows: TableRow[]): string {
  const keys = Object.keys(HEAD) as (keyof TableRow)[];
  const line = (r: TableRow) => `| ${keys.map((k) => r[k]).join(' | ')} |`;
  return [line(HEAD), `|${keys.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}
