// npm run bench: starts each server in its own process, drives it with autocannon, checks every body, prints one table.
// Options: --runs 3 --duration 5 --warmup 2 --connections 32 --rows 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 --pending 10000
// --waiting-tasks 10000 (row 11)
// --questions-sessions 16 --questions-per-session 8 (row 7) --runtimes node@20,node@22,node@24,bun,deno (row 8)
// --max-other 0.3 --retries 2 (a run during which other processes used more than 0.3 cores is run again, at most twice)
// --skip-peers (leave out the servers of bench/peers) --write (bench/RESULTS.md) --profile (cpu-prof Parley).
// It always prints the table: a row that fails says why (with its servers' last log lines) and the others still report.
// The exit code is 0, or the failed rows as bits (row 1 = 1, row 2 = 2, row 3 = 4, ... rows 8 to 15 = 128).
import { execFile } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify, parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { bundleWorker } from '../test/helpers/bundle';
import { startRedis, type RunningRedis } from '../test/helpers/redis';
import { cpuSeconds, disturbanceMeter } from './lib/cpu';
import { runLegacyRounds, runManyQuestions } from './lib/legacy-round';
import {
  completedTask,
  runAnsweredTasks,
  runPlainTasks,
  runQuestionTasks,
  runRounds,
  runThreeReplays,
  runThreeRounds,
  taskGet,
  type CyclesResult,
} from './lib/task-round';
import { machine } from './lib/machine';
import { measureRow, median, summarise, undisturbed, type Cell, type Contender, type Settings } from './lib/measure';
import {
  measurePending,
  measureWaitingTasks,
  waitingCallers,
  waitingEnv,
  type WaitingKind,
  type WaitingMemory,
} from './lib/pending-memory';
import { killAll, startServer, type ServerProcess, type StartOptions } from './lib/processes';
import { runtimeCommand, runtimeVersion, type RuntimeSpec } from './lib/runtimes';
import { cellRows, loadCell, markdownTable, ms, times, type TableRow } from './lib/table';
import { measureWorkerd } from './lib/workerd';
import { startWaitingWorker } from './lib/waiting-worker';
import { runInboxCycles } from './lib/inbox-cycle';
import { discover, elicitationRound, simpleCall, simpleJsonCall, toolsList, twoPlainCalls } from './scenarios';
import { authenticatedCall, startJwks } from './lib/signed-in';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    rows: { type: 'string', default: '1,2,3,4,5,6,7,8,9,10,11,12,13,14,15' },
    pending: { type: 'string', default: '10000' },
    'waiting-tasks': { type: 'string', default: '10000' },
    'questions-sessions': { type: 'string', default: '16' },
    'questions-per-session': { type: 'string', default: '8' },
    runtimes: { type: 'string', default: 'node@20,node@22,node@24,bun,deno' },
    'max-other': { type: 'string', default: '0.3' },
    retries: { type: 'string', default: '2' },
    'skip-peers': { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
  },
});
const settings: Settings = {
  runs: Number(values.runs),
  duration: Number(values.duration),
  warmup: Number(values.warmup),
  connections: Number(values.connections),
  maxOther: Number(values['max-other']),
  retries: Number(values.retries),
};
const rows = new Set(values.rows!.split(','));
const log = (line: string) => console.error(line);

process.once('SIGINT', () => {
  killAll();
  process.exit(130);
});

const before = machine();
const table: TableRow[] = [];
const goals: string[] = [];
const failures: { row: string; what: string; reason: string }[] = [];
/** Measured runs kept although other work disturbed them (every retry was disturbed too). */
let noisyRuns = 0;
const rate = (cell: Cell | undefined, key: 'requestsPerSec' | 'cyclesPerSec' | 'cycleP50' | 'cpuPerCycle' = 'requestsPerSec') =>
  cell?.median?.[key] ?? NaN;
const verdict = (ok: boolean, value: number) => (Number.isNaN(value) ? 'not measured' : ok ? 'met' : 'NOT met');
const pct = (n: number) => (Number.isFinite(n) ? `${(100 * n).toFixed(0)}%` : '–');
const blank = { throughput: '', p50: '', p99: '', vsParley: '', cpu: '', load: '' };

// Servers are started when a row first needs them and shared by the rows after; a server that does not start fails
// the contenders that need it, not the run.
const servers = new Map<string, Promise<ServerProcess>>();
const serve = (key: string, name: string, options: StartOptions = {}) => {
  let server = servers.get(key);
  if (!server) servers.set(key, (server = startServer(name, options)));
  return server;
};
// Every bench server runs with NODE_ENV=production, which requires MCP_SESSION_SECRET for older clients.
const sessionSecret = { MCP_SESSION_SECRET: 'bench-session-secret-0123456789abcdef' };
const parley = () =>
  serve('parley', 'parley', { nodeFlags: values.profile ? ['--cpu-prof', '--cpu-prof-dir=bench/profiles'] : [], env: sessionSecret });

/** A failure: reported under the table and in the exit code, the row's other cells still measured. */
function fail(row: string, what: string, error: unknown, server?: ServerProcess) {
  const message = error instanceof Error ? error.message : String(error);
  const reason = server ? `${message}\n--- ${what}: last lines of its log ---\n${server.logTail()}` : message;
  failures.push({ row, what, reason });
  log(`  FAILED row ${row}, ${what}: ${message.split('\n')[0]}`);
}

/** One row: anything it throws is its failure, reported with the reason; the next rows run all the same. */
async function section(row: string, title: string, body: () => Promise<void>) {
  if (!rows.has(row)) return;
  log(`row ${row}: ${title}`);
  try {
    await body();
  } catch (error) {
    fail(row, title, error);
    table.push({
      row,
      measure: title,
      server: 'FAILED (see below)',
      ...blank,
      bodies: (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 120),
    });
  }
}

interface Entry {
  label: string;
  server: () => Promise<ServerProcess>;
  scenario: () => ReturnType<typeof simpleCall>;
}

/** Measures the entries whose servers start (the others fail with their log), and reports invalid cells as failures. */
async function measureEntries(row: string, entries: Entry[]): Promise<Map<string, Cell>> {
  const ready: (Contender & { process: ServerProcess })[] = [];
  for (const entry of entries) {
    try {
      const process = await entry.server();
      ready.push({ label: entry.label, url: process.url, pid: process.pid, scenario: entry.scenario, process });
    } catch (error) {
      fail(row, entry.label, error);
    }
  }
  const cells = ready.length ? await measureRow(ready, settings, log) : [];
  noisyRuns += cells.reduce((n, c) => n + c.noisy, 0);
  for (const [i, cell] of cells.entries())
    if (!cell.valid)
      fail(
        row,
        cell.label,
        new Error(
          `invalid: ${cell.bad} bad bodies of ${cell.checked}; errors, timeouts or non-2xx in ${cell.runs.filter((r) => !r.valid).length} runs; first bad body: ${cell.badSample ?? '(none)'}`,
        ),
        ready[i]!.process,
      );
  return new Map(cells.map((c) => [c.label, c]));
}

/** Cells in the order of `labels`; a contender that failed to start is a row saying so. */
function pushCells(row: string, measure: string, labels: string[], cells: Map<string, Cell>, unit: 'req' | 'round') {
  const present = labels.filter((l) => cells.has(l));
  const made = cellRows(
    row,
    measure,
    present.map((l) => cells.get(l)!),
    unit,
  );
  let first = true;
  for (const label of labels) {
    const cell = made.find((r) => r.server === label);
    const line = cell ?? { row: '', measure: '', server: label, ...blank, throughput: 'failed', bodies: 'FAILED: see below' };
    table.push({ ...line, row: first ? row : '', measure: first ? measure : '' });
    first = false;
  }
}

// The peers (bench/peers) are another package with its own lock file, installed on first use.
const PEERS = fileURLToPath(new URL('./peers/', import.meta.url));
let peersInstalled: Promise<void> | undefined;
const peers = () =>
  (peersInstalled ??= (async () => {
    const installed = `${PEERS}node_modules/.package-lock.json`;
    if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(`${PEERS}package-lock.json`).mtimeMs) return;
    log('  installing the peers: npm ci --prefix bench/peers');
    await promisify(execFile)('npm', ['ci', '--prefix', PEERS, '--no-audit', '--no-fund', '--loglevel=error'], {
      maxBuffer: 16 << 20,
      timeout: 600_000,
    });
  })());
// mcp-use sends anonymous telemetry unless told not to (and writes .mcp-use/usage.json): the bench tells it not to.
const PEER_ENV: Record<string, Record<string, string>> = { 'mcp-use': { MCP_USE_ANONYMIZED_TELEMETRY: 'false' } };
const peer = (name: string) => async () => {
  await peers();
  return serve(name, `peers/${name}`, { env: PEER_ENV[name] });
};
const withPeers = <T>(list: T[]) => (values['skip-peers'] ? [] : list);

// Rows 4, 7, 10 to 12: one real redis-server, and two Parley processes on it (row 10's pair, which row 12 shares, serves the task tools too),
// each pair started once.
let redis: RunningRedis | undefined;
let redisStarted: Promise<RunningRedis> | undefined;
const sharedRedis = () => (redisStarted ??= startRedis().then((r) => (redis = r)));
const pairs = new Map<string, Promise<[ServerProcess, ServerProcess]>>();
const acrossInstances = (tasks = false) => {
  const key = tasks ? 'tasks' : 'redis';
  let pair = pairs.get(key);
  if (!pair)
    pairs.set(
      key,
      (pair = (async () => {
        const { url } = await sharedRedis();
        // Both instances share the session secret and the state key, as a deployment behind a load balancer would.
        const env = {
          ...sessionSecret,
          BENCH_REDIS_URL: url,
          VAULT_SECRET: 'bench-vault-secret-0123456789abcdef',
          ...(tasks ? { BENCH_TASKS: '1' } : {}),
        };
        return [await serve(`${key}-a`, 'parley', { env }), await serve(`${key}-b`, 'parley', { env })] as [ServerProcess, ServerProcess];
      })()),
    );
  return pair;
};

/** A hand-driven measurement (rows 4, 7 and 10), run again when other work disturbed it, with the load recorded. */
const measured = async <R>(run: () => Promise<R>) => {
  const meter = disturbanceMeter();
  const result = await run();
  return { ...result, ...meter() };
};
const runsOf = async <R>(run: () => Promise<R>) => {
  const out: (R & { otherCores: number; load: number })[] = [];
  let discarded = 0;
  for (let i = 0; i < settings.runs; i++) {
    const [result, thrown] = await undisturbed(settings, () => measured(run), log);
    out.push(result);
    discarded += thrown;
  }
  const noisy = out.filter((r) => r.otherCores > settings.maxOther).length;
  noisyRuns += noisy;
  const loadText = loadCell(median(out.map((r) => r.load)), median(out.map((r) => r.otherCores)), discarded, noisy);
  return { runs: out, loadText };
};

/** A hand-driven cell of rows 10, 12 and 13: medians of the runs, bodies checked, any lost cycle makes it invalid; server
 * CPU per cycle summed over `served` (the processes that served it; the first one's log shows a failure). Returns the
 * medians of the runs' p50, p90 and CPU per cycle (µs), NaN when invalid. */
async function handCell(
  row: string,
  label: string,
  measure: string,
  served: ServerProcess[],
  run: (seconds: number) => Promise<CyclesResult>,
) {
  await run(Math.min(settings.warmup, 1));
  const { runs, loadText } = await runsOf(async () => {
    const before = served.reduce((n, p) => n + cpuSeconds(p.pid), 0);
    const result = await run(settings.duration);
    return { ...result, cpu: served.reduce((n, p) => n + cpuSeconds(p.pid), 0) - before };
  });
  const m = (k: 'cyclesPerSec' | 'p50' | 'p90' | 'p99' | 'polls') => median(runs.map((r) => r[k]));
  const lost = runs.reduce((n, r) => n + r.lost, 0);
  const total = runs.reduce((n, r) => n + r.cycles, 0);
  const cpu = median(runs.map((r) => (r.cpu * 1e6) / Math.max(1, r.cycles)));
  log(
    `  ${label}: p50 ${runs.map((r) => r.p50.toFixed(2)).join(', ')} ms, p90 ${runs.map((r) => r.p90.toFixed(2)).join(', ')} ms, CPU ${runs.map((r) => Math.round((r.cpu * 1e6) / Math.max(1, r.cycles))).join(', ')} µs/cycle, lost ${lost} of ${total}`,
  );
  const valid = lost === 0 && total > 0;
  if (!valid) fail(row, label, new Error(`lost ${lost} of ${total}: ${runs.find((r) => r.lostSample)?.lostSample ?? ''}`), served[0]);
  table.push({
    row: table.some((r) => r.row === row) ? '' : row,
    measure,
    server: label,
    throughput: valid ? `${Math.round(m('cyclesPerSec')).toLocaleString('en-US')} cycles/s` : 'invalid',
    p50: valid ? ms(m('p50')) : '–',
    p99: valid ? ms(m('p99')) : '–',
    vsParley: '',
    cpu: valid && Number.isFinite(cpu) ? `${Math.round(cpu)} µs/cycle` : '–',
    load: loadText,
    bodies: valid
      ? `${total.toLocaleString('en-US')} ok, lost 0; p90 ${ms(m('p90'))} ms${m('polls') > 0 ? `; ${m('polls').toFixed(1)} tasks/get each` : ''}`
      : `INVALID: lost ${lost} of ${total}`,
  });
  return valid ? { p50: m('p50'), p90: m('p90'), cpu } : { p50: NaN, p90: NaN, cpu: NaN };
}

// Row 1's second line: the same simple call to a tool whose input is plain JSON Schema, on the same Parley.
const JSON_LABEL = 'Parley, the tool with a JSON Schema';

try {
  await section('1', 'tools/call, simple tool', async () => {
    const entries: Entry[] = [
      { label: 'Parley (parley-mcp/node)', server: parley, scenario: () => simpleCall() },
      { label: JSON_LABEL, server: parley, scenario: () => simpleJsonCall() },
      { label: 'official SDK createMcpHandler', server: () => serve('official', 'official'), scenario: () => simpleCall() },
      ...withPeers([
        { label: 'tmcp + @tmcp/transport-http', server: peer('tmcp'), scenario: () => simpleCall() },
        { label: "Vercel's mcp-handler", server: peer('mcp-handler'), scenario: () => simpleCall() },
        { label: "mcp-use's MCPServer", server: peer('mcp-use'), scenario: () => simpleCall() },
      ]),
      { label: 'bare Hono handler (ceiling)', server: () => serve('hono', 'hono'), scenario: () => simpleCall() },
      { label: 'bare node:http handler (ceiling)', server: () => serve('node-http', 'node-http'), scenario: () => simpleCall() },
    ];
    const cells = await measureEntries('1', entries);
    pushCells(
      '1',
      'tools/call, simple tool',
      entries.map((e) => e.label),
      cells,
      'req',
    );
    const p = cells.get(entries[0]!.label);
    const [hono, http] = [cells.get('bare Hono handler (ceiling)'), cells.get('bare node:http handler (ceiling)')];
    const ofHttp = rate(p) / rate(http);
    // Issue #48's goal: 85% of bare node:http by server CPU per request, the rate beside it.
    const byCpu = rate(http, 'cpuPerCycle') / rate(p, 'cpuPerCycle');
    goals.push(
      `- Simple call, Parley ÷ bare node:http: ${pct(byCpu)} by server CPU (goal ≥ 85%: ${verdict(byCpu >= 0.85, byCpu)}), ${Math.round(rate(p, 'cpuPerCycle'))} µs against ${Math.round(rate(http, 'cpuPerCycle'))} µs; ${pct(ofHttp)} by rate`,
    );
    goals.push(
      `- Simple call, Parley ÷ bare Hono: ${pct(rate(p) / rate(hono))} by rate; server CPU ${Math.round(rate(p, 'cpuPerCycle'))} µs against ${Math.round(rate(hono, 'cpuPerCycle'))} µs`,
    );
    const json = rate(cells.get(JSON_LABEL)) / rate(p);
    goals.push(
      `- Simple call with a JSON Schema ÷ with Zod: ${pct(json)} by rate (goal ≥ 95%: ${verdict(json >= 0.95, json)}); server CPU ${Math.round(rate(cells.get(JSON_LABEL), 'cpuPerCycle'))} µs against ${Math.round(rate(p, 'cpuPerCycle'))} µs`,
    );
    const others = entries.slice(2, -2).map((e) => [e.label, rate(cells.get(e.label)) / rate(p)] as const);
    const worst = Math.max(...others.map(([, r]) => (Number.isNaN(r) ? Infinity : r)));
    goals.push(
      `- Simple call, every peer ≤ 0.1× Parley: ${others.map(([l, r]) => `${l} ${r.toFixed(3)}×`).join(', ')} (${verdict(worst <= 0.1, others.length ? worst : NaN)})`,
    );
  });

  await section('2', 'elicitation round (input_required + retry)', async () => {
    const signed = () => serve('signed', 'parley', { env: { ...sessionSecret, BENCH_REQUEST_STATE: 'signed' } });
    const entries: Entry[] = [
      { label: 'Parley: round (sealed requestState)', server: parley, scenario: elicitationRound },
      { label: 'Parley: two plain calls', server: parley, scenario: twoPlainCalls },
      { label: "Parley: round, requestState: 'signed'", server: signed, scenario: elicitationRound },
      { label: 'official SDK: round (signed)', server: () => serve('official', 'official'), scenario: elicitationRound },
      { label: 'official SDK: two plain calls', server: () => serve('official', 'official'), scenario: twoPlainCalls },
      ...withPeers([
        { label: 'tmcp: round (plain JSON state)', server: peer('tmcp'), scenario: elicitationRound },
        { label: 'tmcp: two plain calls', server: peer('tmcp'), scenario: twoPlainCalls },
        { label: 'mcp-handler: round (signed)', server: peer('mcp-handler'), scenario: elicitationRound },
        { label: 'mcp-use: round (signed)', server: peer('mcp-use'), scenario: elicitationRound },
      ]),
    ];
    const cells = await measureEntries('2', entries);
    pushCells(
      '2',
      'elicitation round (input_required + retry)',
      entries.map((e) => e.label),
      cells,
      'round',
    );
    const cell = (i: number) => cells.get(entries[i]!.label);
    const [round, plain, signedRound] = [cell(0), cell(1), cell(2)];
    const byCpu = rate(round, 'cpuPerCycle') / rate(plain, 'cpuPerCycle');
    goals.push(
      `- Round (sealed) ÷ two plain calls, Parley, by server CPU: ${times(byCpu)} (goal ≤ 1.35×: ${verdict(byCpu <= 1.35, byCpu)}); by rate ${times(rate(plain, 'cyclesPerSec') / rate(round, 'cyclesPerSec'))}; signed by server CPU ${times(rate(signedRound, 'cpuPerCycle') / rate(plain, 'cpuPerCycle'))}`,
    );
    const official = rate(cell(3), 'cpuPerCycle') / rate(cell(4), 'cpuPerCycle');
    goals.push(
      `  (the official SDK by server CPU: ${times(official)}${values['skip-peers'] ? '' : `; tmcp: ${times(rate(cell(5), 'cpuPerCycle') / rate(cell(6), 'cpuPerCycle'))}`})`,
    );
  });

  await section('3', 'tools/list, server/discover', async () => {
    for (const [label, scenario] of [
      ['tools/list', toolsList],
      ['server/discover', discover],
    ] as const) {
      const entries: Entry[] = [
        { label: 'Parley (parley-mcp/node)', server: parley, scenario },
        { label: 'official SDK createMcpHandler', server: () => serve('official', 'official'), scenario },
      ];
      pushCells(
        '3',
        label,
        entries.map((e) => e.label),
        await measureEntries('3', entries),
        'req',
      );
    }
  });

  await section('4', "an older client's elicitation round (2025-11-25), memory store and two processes through Redis", async () => {
    const local = await parley();
    const [a, b] = await acrossInstances();
    for (const clients of [1, 8]) {
      const cases = [
        ['Parley, one process, memory store', local.url, local.url],
        ['Parley, two processes through Redis (answer to the other)', a.url, b.url],
      ] as const;
      for (const [i, [label, call, answer]] of cases.entries()) {
        await runLegacyRounds(call, answer, { clients, seconds: Math.min(settings.warmup, 1) });
        const { runs, loadText } = await runsOf(() => runLegacyRounds(call, answer, { clients, seconds: settings.duration }));
        log(`  ${label}, ${clients} client(s): p50 ${runs.map((r) => r.p50.toFixed(2)).join(', ')} ms`);
        const valid = runs.every((r) => r.valid);
        const m = (k: 'roundsPerSec' | 'p50' | 'p99') => median(runs.map((r) => r[k]));
        const total = runs.reduce((n, r) => n + r.rounds, 0);
        if (!valid)
          fail(
            '4',
            `${label}, ${clients} clients`,
            new Error(`${runs.reduce((n, r) => n + r.bad, 0)} bad rounds: ${runs.find((r) => r.badSample)?.badSample ?? ''}`),
            i === 0 ? local : b,
          );
        table.push({
          row: i === 0 && clients === 1 ? '4' : '',
          measure: i === 0 ? `older client's elicitation round, ${clients} client${clients > 1 ? 's' : ''}` : '',
          server: label,
          throughput: valid ? `${Math.round(m('roundsPerSec')).toLocaleString('en-US')} rounds/s` : 'invalid',
          p50: valid ? ms(m('p50')) : '–',
          p99: valid ? ms(m('p99')) : '–',
          vsParley: '',
          cpu: '–',
          load: loadText,
          bodies: valid ? `${total.toLocaleString('en-US')} rounds ok` : 'INVALID: see below',
        });
        if (i === 1 && clients === 1)
          goals.push(
            `- Older-client round across two processes through Redis, p50 at 1 client: ${valid ? `${ms(m('p50'))} ms` : 'invalid'} (goal < 3 ms: ${verdict(m('p50') < 3, valid ? m('p50') : NaN)})`,
          );
      }
    }
  });

  await section('7', 'many questions per session (2025-11-25) across two processes through Redis', async () => {
    const [sessions, perSession] = [Number(values['questions-sessions']), Number(values['questions-per-session'])];
    const [a, b] = await acrossInstances();
    await runManyQuestions(a.url, b.url, { sessions, perSession, seconds: Math.min(settings.warmup, 1) });
    const { runs, loadText } = await runsOf(() => runManyQuestions(a.url, b.url, { sessions, perSession, seconds: settings.duration }));
    const m = (k: 'roundsPerSec' | 'p50' | 'p99') => median(runs.map((r) => r[k]));
    const lost = runs.reduce((n, r) => n + r.lost, 0);
    const calls = runs.reduce((n, r) => n + r.calls, 0);
    log(`  p50 ${runs.map((r) => r.p50.toFixed(2)).join(', ')} ms, lost ${lost} of ${calls}`);
    const valid = lost === 0 && calls > 0;
    if (!valid) fail('7', 'many questions', new Error(`lost ${lost} of ${calls}: ${runs.find((r) => r.lostSample)?.lostSample ?? ''}`), a);
    table.push({
      row: '7',
      measure: `older client, ${perSession} questions at once per session, ${sessions} sessions (question → result)`,
      server: 'Parley, two processes through Redis (call on A, answer to B)',
      throughput: valid ? `${Math.round(m('roundsPerSec')).toLocaleString('en-US')} rounds/s` : 'invalid',
      p50: valid ? ms(m('p50')) : '–',
      p99: valid ? ms(m('p99')) : '–',
      vsParley: '',
      cpu: '–',
      load: loadText,
      bodies: valid ? `${calls.toLocaleString('en-US')} calls, lost 0` : `INVALID: lost ${lost} of ${calls}`,
    });
    // A closed loop: every call waits for its result before the wave goes on, so the time a round takes is what is in
    // flight over what gets through (Little's law). That bound says whether p50 is the server's latency or a queue.
    const queue = (1000 * sessions * perSession) / m('roundsPerSec');
    goals.push(
      `- Older-client round across instances through Redis at ${sessions} sessions × ${perSession} questions, p50: ${valid ? `${ms(m('p50'))} ms` : 'invalid'} (goal < 3 ms: ${verdict(m('p50') < 3, valid ? m('p50') : NaN)}); with ${sessions * perSession} calls in flight at ${Math.round(m('roundsPerSec'))} rounds/s a call takes ${ms(queue)} ms on average (Little's law): a queue, not a delay; p50 under 3 ms at this concurrency needs ${Math.round((1000 * sessions * perSession) / 3).toLocaleString('en-US')} rounds/s`,
    );
  });

  await section('5', 'inside workerd (miniflare)', async () => {
    const workerd = await measureWorkerd(settings, log);
    const cell: Cell = {
      ...summarise('Parley Worker in workerd (miniflare)', workerd.runs, workerd.warm, settings.maxOther, workerd.discarded),
    };
    noisyRuns += cell.noisy;
    if (!cell.valid) fail('5', cell.label, new Error(`invalid: ${cell.bad} bad bodies; first: ${cell.badSample ?? '(none)'}`));
    table.push(...cellRows('5', 'tools/call, simple tool, in workerd', [cell], 'req'));
    const n = Math.max(3, settings.runs);
    const { cold, workerdAlone } = workerd;
    table.push({
      row: '',
      measure: 'starting workerd itself',
      server: 'new workerd process, a trivial worker → ready',
      ...blank,
      p50: `${ms(workerdAlone.ready)} (median of ${n})`,
      bodies: `its first request: ${ms(workerdAlone.firstRequest)} ms`,
    });
    table.push({
      row: '',
      measure: 'cold start of the Worker isolate',
      server: "Parley's isolate: ready beyond workerd's own, then its first tools/call",
      ...blank,
      p50: `${ms(cold.ready - workerdAlone.ready + cold.firstRequest)} (median of ${n})`,
      bodies: `load and evaluate ${ms(cold.ready - workerdAlone.ready)} ms + first request ${ms(cold.firstRequest)} ms (the server is built on it)`,
    });
    table.push({
      row: '',
      measure: 'both together',
      server: 'new workerd process with Parley → first tools/call answered',
      ...blank,
      p50: `${ms(cold.toFirstResponse)} (median of ${n})`,
      bodies: '',
    });
  });

  await section('6', 'Worker bundle size, memory of pending older-client questions', async () => {
    const { code } = await bundleWorker('examples/cloudflare/worker.ts', { minify: true });
    const size = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    table.push({
      row: '6',
      measure: 'Worker bundle (examples/cloudflare/worker.ts, minified, as npm run size)',
      server: 'esbuild + gzip',
      ...blank,
      throughput: `${size(gzipSync(code).length)} gzip`,
      bodies: `${size(Buffer.byteLength(code))} minified`,
    });
    const count = Number(values.pending);
    const held = await serve('held', 'parley', { nodeFlags: ['--expose-gc'], env: sessionSecret });
    const memory = await measurePending(held, count);
    const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
    const kb = memory.perQuestion / 1024;
    table.push({
      row: '',
      measure: `${count.toLocaleString('en-US')} pending older-client questions (a record each, 100 per session)`,
      server: 'Parley, one process, memory store',
      ...blank,
      throughput: `RSS ${mb(memory.before)} → ${mb(memory.after)}`,
      bodies: `${kb.toFixed(1)} KB each (RSS, with its open SSE connection); after a full GC: RSS ${(memory.collected.rss / 1024).toFixed(1)} KB, live ${(memory.collected.live / 1024).toFixed(1)} KB each`,
    });
    goals.push(
      `- ${count.toLocaleString('en-US')} pending older-client questions: ${kb.toFixed(1)} KB each by RSS with the open stream (goal ≤ 15 KB: ${verdict(kb <= 15, kb)}); after a full GC ${(memory.collected.rss / 1024).toFixed(1)} KB by RSS, ${(memory.collected.live / 1024).toFixed(1)} KB alive (V8 heap, external, buffers; the kernel's socket buffers are in neither)`,
    );
  });

  await section('8', 'every runtime: the simple call and the round, Parley beside a bare handler on the same runtime', async () => {
    const specs = values.runtimes!.split(',').filter(Boolean);
    for (const [n, spec] of specs.entries()) {
      let command: string[] | undefined;
      let version = spec;
      try {
        command = spec === 'node@20' ? [process.execPath] : await runtimeCommand(spec as RuntimeSpec);
        version = await runtimeVersion(command);
      } catch (error) {
        fail('8', `${spec}: install`, error);
        table.push({
          row: n === 0 ? '8' : '',
          measure: spec,
          server: 'FAILED (see below)',
          ...blank,
          bodies: 'the runtime did not install',
        });
        continue;
      }
      const node = spec.startsWith('node');
      const name = (s: string) => `${spec}${node ? '' : ` ${spec === 'bun' ? 'Bun.serve' : 'Deno.serve'}`}: ${s}`;
      const runtime = spec === 'node@20' ? undefined : command;
      // A process of its own on every runtime, Node 20 included: row 8 compares fresh servers, not one rows 1–4 used.
      const parleyHere = () => serve(`parley-${spec}`, node ? 'parley' : 'parley-fetch', { runtime, env: sessionSecret });
      const bare = () => serve(`bare-${spec}`, node ? 'node-http' : 'bare-fetch', { runtime });
      const entries: Entry[] = [
        {
          label: name(node ? 'Parley (parley-mcp/node), simple call' : 'Parley (createFetchHandler), simple call'),
          server: parleyHere,
          scenario: () => simpleCall(),
        },
        {
          label: name(node ? 'bare node:http, simple call' : 'bare fetch handler, simple call'),
          server: bare,
          scenario: () => simpleCall(),
        },
        { label: name('Parley, round (sealed)'), server: parleyHere, scenario: elicitationRound },
        { label: name('Parley, two plain calls'), server: parleyHere, scenario: twoPlainCalls },
      ];
      const cells = await measureEntries('8', entries);
      const labels = entries.map((e) => e.label);
      pushCells(n === 0 ? '8' : '', version, labels.slice(0, 2), cells, 'req');
      pushCells('', '', labels.slice(2), cells, 'round');
      const c = labels.map((l) => cells.get(l));
      goals.push(
        `- ${version}: Parley ÷ bare handler ${pct(rate(c[0]) / rate(c[1]))} by rate, server CPU ${Math.round(rate(c[0], 'cpuPerCycle'))} against ${Math.round(rate(c[1], 'cpuPerCycle'))} µs; round ÷ two plain calls by server CPU ${times(rate(c[2], 'cpuPerCycle') / rate(c[3], 'cpuPerCycle'))}`,
      );
    }
  });

  await section('9', 'tools/call, simple tool, signed in (ES256 JWT) beside anonymous', async () => {
    // A JWKS on loopback; the signed-in server fetches it once and keeps it. Every call carries the same token, as a
    // client does for the token's lifetime: its signature is verified on first sight, later calls find it in the
    // verified-token cache (a SHA-256 of the token) and check its expiry and audience.
    const jwks = await startJwks();
    try {
      const signedIn = () => serve('parley-auth', 'parley', { env: { ...sessionSecret, BENCH_AUTH_JWKS: jwks.url } });
      const entries: Entry[] = [
        { label: 'Parley, anonymous', server: parley, scenario: () => simpleCall() },
        { label: 'Parley, signed in (JWT, JWKS kept)', server: signedIn, scenario: () => authenticatedCall(jwks.token) },
      ];
      const cells = await measureEntries('9', entries);
      const labels = entries.map((e) => e.label);
      pushCells('9', 'tools/call, simple tool, anonymous and signed in', labels, cells, 'req');
      const ratio = rate(cells.get(labels[1]!)) / rate(cells.get(labels[0]!));
      goals.push(`- Signed-in simple call ÷ anonymous: ${pct(ratio)} by rate (goal ≥ 90%: ${verdict(ratio >= 0.9, ratio)})`);
    } finally {
      await jwks.close();
    }
  });

  await section('10', 'tasks (2026-07-28): create → completed, tasks/get, a question answered on the other instance', async () => {
    const local = await serve('tasks', 'parley', { env: { ...sessionSecret, BENCH_TASKS: '1' } });
    const [a, b] = await acrossInstances(true);
    const clients = 8;
    const cycles = (label: string, measure: string, served: ServerProcess[], run: (seconds: number) => Promise<CyclesResult>) =>
      handCell('10', label, measure, served, run);
    await cycles('Parley, one process, memory store', `no-input task, create → completed (${clients} clients)`, [local], (seconds) =>
      runPlainTasks(local.url, { clients, seconds }),
    );
    await cycles('Parley, two processes through Redis (all on A)', '', [a], (seconds) => runPlainTasks(a.url, { clients, seconds }));
    const taskId = await completedTask(local.url);
    const getLabel = 'Parley, one process, memory store';
    const get = await measureEntries('10', [{ label: getLabel, server: async () => local, scenario: () => taskGet(taskId) }]);
    pushCells('', 'tasks/get of a completed task', [getLabel], get, 'req');
    const { p50: task } = await cycles(
      'Parley, task created on A, asked, answered with tasks/update on B (polled on B)',
      'one-question task, create → completed (1 client)',
      [a, b],
      (seconds) => runQuestionTasks(a.url, b.url, { clients: 1, seconds }),
    );
    const { p50: round } = await cycles(
      'Parley, the round: call on A, retry with the answer on B',
      'elicitation round, call → result (1 client)',
      [a, b],
      (seconds) => runRounds(a.url, b.url, { clients: 1, seconds }),
    );
    goals.push(
      `- A one-question task across two processes through Redis, p50 create → completed at 1 client: ${ms(task)} ms, beside Parley's own round across the same two processes: ${ms(round)} ms (${times(task / round)})`,
    );
  });

  await section('11', 'tasks waiting at a question, memory per task at rest', async () => {
    const count = Number(values['waiting-tasks']);
    const jwks = await startJwks();
    const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;
    const measuredKinds = new Map<WaitingKind, WaitingMemory>();
    try {
      const kinds: [WaitingKind, string][] = [
        ['memory', 'Parley, one process, memory store: the task parks (its run ends)'],
        ['redis', 'Parley, one process, Redis: the task parks (its run ends)'],
        ['inbox', "Parley, memory store, signed-in callers' tasks also filed in their inbox: the task waits in its run (today)"],
      ];
      for (const [kind, label] of kinds) {
        const redisUrl = kind === 'redis' ? (await sharedRedis()).url : undefined;
        const env = { ...sessionSecret, ...waitingEnv(kind, count, { redisUrl, jwksUrl: jwks.url }) };
        const held = await serve(`waiting-${kind}`, 'parley', { nodeFlags: ['--expose-gc'], env });
        try {
          const callers = await waitingCallers(kind, count, jwks.tokenFor);
          const m = await measureWaitingTasks(held, count, { callers, redisPort: kind === 'redis' ? redis!.port : undefined });
          measuredKinds.set(kind, m);
          log(`  ${kind}: ${JSON.stringify(m)}`);
          const ok = m.answered.completed === m.answered.sampled;
          if (!ok)
            fail(
              '11',
              label,
              new Error(
                `${m.answered.sampled - m.answered.completed} of ${m.answered.sampled} answered afterwards did not complete: ${m.answered.failure}`,
              ),
              held,
            );
          table.push({
            row: table.some((r) => r.row === '11') ? '' : '11',
            measure: kind === 'memory' ? `${count.toLocaleString('en-US')} one-question tasks waiting (100 callers × 100), at rest` : '',
            server: label,
            ...blank,
            throughput: `created in ${m.seconds.toFixed(1)} s`,
            cpu: `${m.restCores.toFixed(3)} cores at rest`,
            bodies: `${kb(m.perTask)} each by RSS; after a full GC: RSS ${kb(m.collected.rss)}, live ${kb(m.collected.live)} each${m.redisBytes === undefined ? '' : `; in redis-server ${kb(m.redisBytes)} each`}; ${m.answered.completed}/${m.answered.sampled} answered afterwards completed`,
          });
        } finally {
          await held.stop(); // a run-held task ticks its lease: it must not run beside the next rows
        }
      }
    } finally {
      await jwks.close();
    }
    const live = (kind: WaitingKind) => (measuredKinds.get(kind)?.collected.live ?? NaN) / 1024;
    const rss = (kind: WaitingKind) => (measuredKinds.get(kind)?.perTask ?? NaN) / 1024;
    goals.push(
      `- ${count.toLocaleString('en-US')} tasks waiting at a question, live memory per task after a full GC (goal ≤ 2 KB of process memory, the store's record only): memory store ${live('memory').toFixed(2)} KB (record included: ${verdict(live('memory') <= 2, live('memory'))}), Redis ${live('redis').toFixed(2)} KB (${verdict(live('redis') <= 2, live('redis'))}); by RSS ${rss('memory').toFixed(1)} and ${rss('redis').toFixed(1)} KB; beside a task that waits in its run today (inbox-filed): ${live('inbox').toFixed(2)} KB live, ${rss('inbox').toFixed(1)} KB by RSS`,
    );
  });

  await section('12', 'a task answered on the other instance through Redis, tasks/update → completed', async () => {
    const [a, b] = await acrossInstances(true);
    const other = await handCell(
      '12',
      'Parley, task created and asked on A, tasks/update to B, which claims and replays it (polled on B)',
      'one-question task, tasks/update → completed seen by the client (1 client; p50, p90 of that span)',
      [a, b],
      (seconds) => runAnsweredTasks(a.url, b.url, { clients: 1, seconds }),
    );
    const same = await handCell('12', 'Parley, the same task answered on A itself (A replays it)', '', [a, b], (seconds) =>
      runAnsweredTasks(a.url, a.url, { clients: 1, seconds }),
    );
    goals.push(
      `- A task answered on the other instance through Redis, tasks/update → completed at 1 client: p50 ${ms(other.p50)} ms, p90 ${ms(other.p90)} ms; answered on the instance that created it: p50 ${ms(same.p50)} ms, p90 ${ms(same.p90)} ms`,
    );
  });

  await section('13', 'three questions: a task answered one at a time (three replays) beside a call of three rounds', async () => {
    const local = await serve('tasks', 'parley', { env: { ...sessionSecret, BENCH_TASKS: '1' } });
    const replays = await handCell(
      '13',
      'Parley, one process, memory store: the task (create, then 3 × poll and tasks/update, each replaying execute())',
      'the same three-question tool (1 client, create/call → completed)',
      [local],
      (seconds) => runThreeReplays(local.url, { clients: 1, seconds }),
    );
    const rounds = await handCell(
      '13',
      'Parley, one process: the call of three rounds (call + 3 retries with requestState)',
      '',
      [local],
      (seconds) => runThreeRounds(local.url, { clients: 1, seconds }),
    );
    goals.push(
      `- Three questions, one process: the task answered one at a time (three replays) p50 ${ms(replays.p50)} ms, ${Math.round(replays.cpu)} µs of server CPU, beside three rounds p50 ${ms(rounds.p50)} ms, ${Math.round(rounds.cpu)} µs (${times(replays.cpu / rounds.cpu)} by CPU; the task's figure includes its tasks/get polls)`,
    );
  });

  await section('14', 'what waits, on a Worker in workerd (Durable Objects) beside the same on Node', async () => {
    const node = await serve('tasks', 'parley', { env: { ...sessionSecret, BENCH_TASKS: '1' } });
    const worker = await startWaitingWorker();
    try {
      const taskP50: number[] = [];
      for (const [where, served] of [
        ['Node (parley-mcp/node), memory store', node],
        ['a Worker in workerd (miniflare), Durable Objects store', worker],
      ] as const) {
        for (const clients of [1, 8]) {
          await handCell(
            '14',
            `Parley on ${where}: the round (call, then the retry with requestState)`,
            `elicitation round, call → result (${clients} client${clients > 1 ? 's' : ''})`,
            [served],
            (seconds) => runRounds(served.url, served.url, { clients, seconds }),
          );
          const task = await handCell(
            '14',
            `Parley on ${where}: a one-question task (create, poll, tasks/update, poll to completed)`,
            '',
            [served],
            (seconds) => runQuestionTasks(served.url, served.url, { clients, seconds }),
          );
          if (clients === 1) taskP50.push(task.p50);
        }
      }
      const [onNode, onWorker] = taskP50;
      goals.push(
        `- What waits, on a Worker: a one-question task p50 create → completed at 1 client ${ms(onWorker!)} ms in workerd with Durable Objects, ${ms(onNode!)} ms on Node with the memory store (${times(onWorker! / onNode!)})`,
      );
    } finally {
      await worker.stop();
    }
  });
  await section('15', 'a persistent question filed and answered in the inbox: Durable Objects in workerd beside Node', async () => {
    const node = await serve('inbox-node', 'inbox-node');
    const worker = await startWaitingWorker('test/edge/entries/inbox-worker.ts');
    try {
      const p50: number[] = [];
      for (const [where, served] of [
        ['Node, memory store', node],
        ['a Worker in workerd (miniflare), Durable Objects store', worker],
      ] as const) {
        const cell = await handCell(
          '15',
          `Parley on ${where}: filed by a call, listed and answered in the inbox, the next call gets the answer`,
          p50.length === 0 ? 'persistent question, call → inbox list → answer → call (1 client)' : '',
          [served],
          (seconds) => runInboxCycles(new URL(served.url).origin, { clients: 1, seconds }),
        );
        p50.push(cell.p50);
      }
      const [onNode, onWorker] = p50;
      goals.push(
        `- A persistent question filed and answered in the inbox, p50 of the cycle at 1 client: ${ms(onWorker!)} ms in workerd with Durable Objects, ${ms(onNode!)} ms on Node with the memory store (${times(onWorker! / onNode!)})`,
      );
    } finally {
      await worker.stop();
    }
  });
} finally {
  await Promise.all(
    [...servers.values()].map((s) =>
      s.then(
        (p) => p.stop(),
        () => {},
      ),
    ),
  );
  await redis?.stop();
}

const after = machine();
const notes = [
  '- Load · other cores: the 1-minute load average after each run and the cores other processes used during it (medians). A run during which other work took more than the limit was run again; "rerun" counts those thrown away, "noisy" those kept when every try was disturbed.',
  '- Row 2 compares each server with itself: its round beside its two plain calls on the same connection. tmcp sends its requestState as plain JSON (its default); the others sign it (Parley seals it by default).',
  "- Row 4 is driven by a hand-written client (fetch, reading each call's SSE stream and posting the answer), not autocannon; at 8 clients that client, not the server, is the limit.",
  "- Row 5 runs with elicitation off in the Worker (on the edge it needs a distributed store); autocannon reaches workerd through miniflare's loopback port.",
  "- Row 8 runs each server under that runtime (Node: parley-mcp/node and node:http; Bun and Deno: createFetchHandler and a bare fetch handler under Bun.serve / Deno.serve); the runtimes are the npm registry's packages.",
];
const command = `npm run bench -- --runs ${settings.runs} --duration ${settings.duration} --warmup ${settings.warmup} --connections ${settings.connections} --rows ${[...rows].join(',')} --pending ${values.pending}${rows.has('11') ? ` --waiting-tasks ${values['waiting-tasks']}` : ''}${rows.has('7') ? ` --questions-sessions ${values['questions-sessions']} --questions-per-session ${values['questions-per-session']}` : ''}${rows.has('8') ? ` --runtimes ${values.runtimes}` : ''} --max-other ${settings.maxOther} --retries ${settings.retries}${values['skip-peers'] ? ' --skip-peers' : ''}`;
const failedRows = [...new Set(failures.map((f) => f.row))].sort();
const report = [
  markdownTable(table),
  '',
  "Goals (the issue's, compared only within this run):",
  ...goals,
  '',
  ...notes,
  '',
  `Machine: ${before.cpus} × ${before.cpuModel}, Node ${before.node}, ${before.os}. Load average (1 min) before ${before.load.toFixed(2)}, after ${after.load.toFixed(2)}.`,
  `Settings: ${settings.connections} connections, ${settings.runs} runs × ${settings.duration} s after ${settings.warmup} s warm-up per server, medians; each server in its own process; autocannon in the harness process.`,
  `Command: \`${command}\``,
  ...(failures.length
    ? [
        '',
        `Failed rows: ${failedRows.join(', ')}`,
        ...failures.map((f) => `\n- Row ${f.row}, ${f.what}:\n\n\`\`\`\n${f.reason.trim()}\n\`\`\``),
      ]
    : []),
].join('\n');
console.log(report);
if (values.write) {
  // Other work is what the runs measured beside their own (noisyRuns), and the load before anything here started: the
  // load after a run is mostly the bench's own (autocannon and the servers on the same cores), not a sign of other work.
  const busy = noisyRuns > 0 || before.load > before.cpus;
  const provisional = busy
    ? `**Provisional: measured on a busy machine** (load average ${before.load.toFixed(1)} before, ${after.load.toFixed(1)} after, on ${before.cpus} cores; ${noisyRuns} measured runs disturbed by other work and kept, no undisturbed try within --retries ${settings.retries}). These numbers prove the run finishes; they are not results. Replace them with one quiet run of the command below.\n\n`
    : '';
  const header =
    '# Benchmark results\n\n' +
    provisional +
    'The latest `npm run bench` table (bench/run.ts writes this file with `--write`). Numbers are from one run on one machine; compare only within the table. A load average well above the core count (shown below) means other work shared the CPUs: read the ratios and the server-CPU column rather than the absolute rates. bench/README.md says what changed and what still stands between the elicitation round and its goal.\n\n';
  writeFileSync(new URL('./RESULTS.md', import.meta.url), `${header}${report}\n`);
}
if (failedRows.length)
  log(`FAILED rows: ${failedRows.join(', ')} (exit code ${failedRows.reduce((code, row) => code | (1 << (Number(row) - 1)), 0)})`);
// An exit code has 8 bits: rows 8 to 13 share the last.
process.exit(failedRows.reduce((code, row) => code | (1 << Math.min(Number(row) - 1, 7)), 0));
