// npm run bench: starts each server in its own process, drives it with autocannon, checks every body, prints one table.
// Options: --runs 3 --duration 5 --warmup 2 --connections 32 --rows 1,2,3 --write (bench/RESULTS.md) --profile (cpu-prof Parley).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { machine } from './lib/machine';
import { measureRow, type Cell, type Settings } from './lib/measure';
import { killAll, startServer, type ServerProcess } from './lib/processes';
import { cellRows, markdownTable, times, type TableRow } from './lib/table';
import { discover, elicitationRound, simpleCall, toolsList, twoPlainCalls } from './scenarios';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    rows: { type: 'string', default: '1,2,3' },
    write: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
  },
});
const settings: Settings = { runs: Number(values.runs), duration: Number(values.duration), warmup: Number(values.warmup), connections: Number(values.connections) };
const rows = new Set(values.rows!.split(','));
const log = (line: string) => console.error(line);

process.once('SIGINT', () => {
  killAll();
  process.exit(130);
});

const before = machine();
const started: ServerProcess[] = [];
const start = async (name: string, flags: string[] = []) => {
  const server = await startServer(name, { nodeFlags: flags });
  started.push(server);
  return server;
};

const table: TableRow[] = [];
const goals: string[] = [];
const rate = (cell: Cell | undefined, key: 'requestsPerSec' | 'cyclesPerSec' = 'requestsPerSec') => cell?.median?.[key] ?? NaN;
const verdict = (ok: boolean, value: number) => (Number.isNaN(value) ? 'not measured' : ok ? 'met' : 'NOT met');

try {
  const profileFlags = values.profile ? ['--cpu-prof', '--cpu-prof-dir=bench/profiles'] : [];
  const parley = await start('parley', profileFlags);
  const official = await start('official');
  const hono = rows.has('1') ? await start('hono') : undefined;
  const nodeHttp = rows.has('1') ? await start('node-http') : undefined;

  if (rows.has('1')) {
    log('row 1: tools/call of a simple tool');
    const cells = await measureRow(
      [
        { label: 'Parley (parley/node)', url: parley.url, pid: parley.pid, scenario: () => simpleCall() },
        { label: 'official SDK createMcpHandler', url: official.url, pid: official.pid, scenario: () => simpleCall() },
        { label: 'bare Hono handler (ceiling)', url: hono!.url, pid: hono!.pid, scenario: () => simpleCall() },
        { label: 'bare node:http handler', url: nodeHttp!.url, pid: nodeHttp!.pid, scenario: () => simpleCall() },
      ],
      settings,
      log,
    );
    table.push(...cellRows('1', 'tools/call, simple tool', cells, 'req'));
    const [p, o, h, n] = cells.map((c) => rate(c));
    goals.push(`- Simple call, Parley ÷ official SDK: ${times(p! / o!)} (goal ≥ 10×: ${verdict(p! / o! >= 10, p! / o!)})`);
    goals.push(`- Simple call, Parley ÷ bare Hono ceiling: ${((100 * p!) / h!).toFixed(0)}% (goal ≥ 50%: ${verdict(p! / h! >= 0.5, p! / h!)}); ÷ bare node:http: ${((100 * p!) / n!).toFixed(0)}%`);
  }

  if (rows.has('2')) {
    log('row 2: elicitation round beside two plain calls');
    const cells = await measureRow(
      [
        { label: 'Parley: round', url: parley.url, pid: parley.pid, scenario: elicitationRound },
        { label: 'Parley: two plain calls', url: parley.url, pid: parley.pid, scenario: twoPlainCalls },
        { label: 'official SDK: round', url: official.url, pid: official.pid, scenario: elicitationRound },
        { label: 'official SDK: two plain calls', url: official.url, pid: official.pid, scenario: twoPlainCalls },
      ],
      settings,
      log,
    );
    table.push(...cellRows('2', 'elicitation round (input_required + retry)', cells, 'round'));
    const [pr, pp, or, op] = cells.map((c) => rate(c, 'cyclesPerSec'));
    // At a fixed concurrency the mean time of a cycle is connections ÷ cycles/s, so the time ratio is the inverse rate ratio.
    goals.push(`- Elicitation round ÷ two plain calls, Parley: ${times(pp! / pr!)} (goal ≤ 1.15×: ${verdict(pp! / pr! <= 1.15, pp! / pr!)}); official SDK: ${times(op! / or!)}`);
  }

  if (rows.has('3')) {
    log('row 3: tools/list and server/discover');
    for (const [label, scenario] of [['tools/list', toolsList], ['server/discover', discover]] as const) {
      const cells = await measureRow(
        [
          { label: 'Parley (parley/node)', url: parley.url, pid: parley.pid, scenario },
          { label: 'official SDK createMcpHandler', url: official.url, pid: official.pid, scenario },
        ],
        settings,
        log,
      );
      table.push(...cellRows('3', label, cells, 'req'));
    }
  }
} finally {
  await Promise.all(started.map((s) => s.stop()));
}

const after = machine();
const notYet = [
  '- Row 4 (an older client\'s elicitation round, memory store and two processes through Redis): not yet — the older-protocol transport and the Redis store are not on main.',
  '- Row 5 (workerd: requests/s of a simple call, cold isolate to first response): not yet.',
  '- Row 6 (Worker bundle gzip size; memory of 10,000 pending older-client questions): not yet — the second needs the older-protocol transport.',
];
const command = `npm run bench -- --runs ${settings.runs} --duration ${settings.duration} --warmup ${settings.warmup} --connections ${settings.connections} --rows ${[...rows].join(',')}`;
const report = [
  markdownTable(table),
  '',
  'Goals (the issue\'s, compared only within this run):',
  ...goals,
  '',
  ...notYet,
  '',
  `Machine: ${before.cpus} × ${before.cpuModel}, Node ${before.node}, ${before.os}. Load average (1 min) before ${before.load.toFixed(2)}, after ${after.load.toFixed(2)}.`,
  `Settings: ${settings.connections} connections, ${settings.runs} runs × ${settings.duration} s after ${settings.warmup} s warm-up per server, medians; each server in its own process; autocannon in the harness process.`,
  `Command: \`${command}\``,
].join('\n');
console.log(report);
if (values.write) {
  const header = '# Benchmark results\n\nThe latest `npm run bench` table (bench/run.ts writes this file with `--write`). Numbers are from one run on one machine; compare only within the table.\n\n';
  writeFileSync(new URL('./RESULTS.md', import.meta.url), `${header}${report}\n`);
}
