// npm run bench: starts each server in its own process, drives it with autocannon, checks every body, prints one table.
// Options: --runs 3 --duration 5 --warmup 2 --connections 32 --rows 1,2,3,4,5,6,7 --pending 10000
// --questions-sessions 16 --questions-per-session 8 (row 7) --write (bench/RESULTS.md)
// --profile (cpu-prof Parley).
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { bundleWorker } from '../test/helpers/bundle';
import { startRedis, type RunningRedis } from '../test/helpers/redis';
import { runLegacyRounds, runManyQuestions, type LegacyRoundResult, type ManyQuestionsResult } from './lib/legacy-round';
import { measurePending } from './lib/pending-memory';
import { measureWorkerd } from './lib/workerd';
import { parseArgs } from 'node:util';
import { machine } from './lib/machine';
import { measureRow, median, summarise, type Cell, type Settings } from './lib/measure';
import { killAll, startServer, type ServerProcess } from './lib/processes';
import { cellRows, markdownTable, ms, times, type TableRow } from './lib/table';
import { discover, elicitationRound, simpleCall, toolsList, twoPlainCalls } from './scenarios';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    rows: { type: 'string', default: '1,2,3,4,5,6,7' },
    pending: { type: 'string', default: '10000' },
    'questions-sessions': { type: 'string', default: '16' },
    'questions-per-session': { type: 'string', default: '8' },
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
let redis: RunningRedis | undefined;
const start = async (name: string, flags: string[] = [], env?: Record<string, string>) => {
  const server = await startServer(name, { nodeFlags: flags, env });
  started.push(server);
  return server;
};

// Every bench server runs with NODE_ENV=production, which requires MCP_SESSION_SECRET for older clients.
const sessionSecret = { MCP_SESSION_SECRET: 'bench-session-secret-0123456789abcdef' };
const table: TableRow[] = [];
const goals: string[] = [];
const rate = (cell: Cell | undefined, key: 'requestsPerSec' | 'cyclesPerSec' | 'cycleP50' = 'requestsPerSec') => cell?.median?.[key] ?? NaN;
// Rows 4 and 7: a real redis-server and two Parley processes on it, started once for both rows.
let instances: Promise<[ServerProcess, ServerProcess]> | undefined;
const acrossInstances = () =>
  (instances ??= (async () => {
    redis = await startRedis();
    // Both instances share the session secret and the state key, as a deployment behind a load balancer would.
    const env = { ...sessionSecret, BENCH_REDIS_URL: redis.url, VAULT_SECRET: 'bench-vault-secret-0123456789abcdef' };
    return [await start('parley', [], env), await start('parley', [], env)] as [ServerProcess, ServerProcess];
  })());
const verdict = (ok: boolean, value: number) => (Number.isNaN(value) ? 'not measured' : ok ? 'met' : 'NOT met');

try {
  const profileFlags = values.profile ? ['--cpu-prof', '--cpu-prof-dir=bench/profiles'] : [];
  const parley = await start('parley', profileFlags, sessionSecret);
  // Row 2 measures the round with a signed requestState too, from a second Parley process, in the same run.
  const signed = rows.has('2') ? await start('parley', [], { ...sessionSecret, BENCH_REQUEST_STATE: 'signed' }) : undefined;
  const official = await start('official');
  const hono = rows.has('1') ? await start('hono') : undefined;
  const nodeHttp = rows.has('1') ? await start('node-http') : undefined;

  if (rows.has('1')) {
    log('row 1: tools/call of a simple tool');
    const cells = await measureRow(
      [
        { label: 'Parley (parley-mcp/node)', url: parley.url, pid: parley.pid, scenario: () => simpleCall() },
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
        { label: "Parley: round, requestState: 'signed'", url: signed!.url, pid: signed!.pid, scenario: elicitationRound },
      ],
      settings,
      log,
    );
    table.push(...cellRows('2', 'elicitation round (input_required + retry)', cells, 'round'));
    const [pr, pp, or, op] = cells.map((c) => rate(c, 'cyclesPerSec'));
    // At a fixed concurrency the mean time of a cycle is connections ÷ cycles/s, so the time ratio is the inverse rate ratio.
    goals.push(`- Elicitation round ÷ two plain calls, Parley: ${times(pp! / pr!)} (goal ≤ 1.15×: ${verdict(pp! / pr! <= 1.15, pp! / pr!)}); official SDK: ${times(op! / or!)}`);
    // The median time a cycle's requests took as the client saw them, its own work between them left out.
    const [mr, mp, sr, sp] = cells.map((c) => rate(c, 'cycleP50'));
    goals.push(`  (by p50 of a cycle's requests: Parley ${times(mr! / mp!)}, official SDK ${times(sr! / sp!)})`);
    const [sealedCpu, signedCpu] = [cells[0]?.median?.cpuPerCycle, cells[4]?.median?.cpuPerCycle];
    goals.push(`- Round with a sealed requestState ÷ signed, Parley: ${times(rate(cells[4], 'cyclesPerSec') / pr!)} by rate${sealedCpu && signedCpu ? `, ${times(sealedCpu / signedCpu)} by server CPU` : ''}`);
  }

  if (rows.has('3')) {
    log('row 3: tools/list and server/discover');
    for (const [label, scenario] of [['tools/list', toolsList], ['server/discover', discover]] as const) {
      const cells = await measureRow(
        [
          { label: 'Parley (parley-mcp/node)', url: parley.url, pid: parley.pid, scenario },
          { label: 'official SDK createMcpHandler', url: official.url, pid: official.pid, scenario },
        ],
        settings,
        log,
      );
      table.push(...cellRows('3', label, cells, 'req'));
    }
  }
  if (rows.has('4')) {
    log('row 4: an older client\'s elicitation round (2025-11-25), memory store and two processes through Redis');
    const [a, b] = await acrossInstances();
    for (const clients of [1, 8]) {
      const measure = async (label: string, call: string, answer: string) => {
        await runLegacyRounds(call, answer, { clients, seconds: Math.min(settings.warmup, 1) });
        const runs: LegacyRoundResult[] = [];
        for (let i = 0; i < settings.runs; i++) runs.push(await runLegacyRounds(call, answer, { clients, seconds: settings.duration }));
        log(`  ${label}, ${clients} client(s): p50 ${runs.map((r) => r.p50.toFixed(2)).join(', ')} ms`);
        return { label, runs };
      };
      const results = [await measure('Parley, one process, memory store', parley.url, parley.url), await measure('Parley, two processes through Redis (answer to the other)', a.url, b.url)];
      for (const [i, { label, runs }] of results.entries()) {
        const valid = runs.every((r) => r.valid);
        const m = (k: 'roundsPerSec' | 'p50' | 'p99') => median(runs.map((r) => r[k]));
        const bad = runs.reduce((n, r) => n + r.bad, 0);
        const total = runs.reduce((n, r) => n + r.rounds, 0);
        table.push({
          row: i === 0 && clients === 1 ? '4' : '',
          measure: i === 0 ? `older client's elicitation round, ${clients} client${clients > 1 ? 's' : ''}` : '',
          server: label,
          throughput: valid ? `${Math.round(m('roundsPerSec')).toLocaleString('en-US')} rounds/s` : 'invalid',
          p50: valid ? ms(m('p50')) : '–',
          p99: valid ? ms(m('p99')) : '–',
          vsParley: '',
          cpu: '–',
          bodies: valid ? `${total.toLocaleString('en-US')} rounds ok` : `INVALID: ${bad} bad (${runs.find((r) => r.badSample)?.badSample ?? ''})`,
        });
        if (i === 1 && clients === 1) goals.push(`- Older-client round across two processes through Redis, p50 at 1 client: ${valid ? `${ms(m('p50'))} ms` : 'invalid'} (goal < 5 ms: ${verdict(m('p50') < 5, valid ? m('p50') : NaN)})`);
      }
    }
  }

  if (rows.has('7')) {
    const [sessions, perSession] = [Number(values['questions-sessions']), Number(values['questions-per-session'])];
    log(`row 7: many questions per session (2025-11-25) across two processes through Redis: ${sessions} sessions × ${perSession} concurrent calls`);
    const [a, b] = await acrossInstances();
    await runManyQuestions(a.url, b.url, { sessions, perSession, seconds: Math.min(settings.warmup, 1) });
    const runs: ManyQuestionsResult[] = [];
    for (let i = 0; i < settings.runs; i++) runs.push(await runManyQuestions(a.url, b.url, { sessions, perSession, seconds: settings.duration }));
    const m = (k: 'roundsPerSec' | 'p50' | 'p99') => median(runs.map((r) => r[k]));
    const lost = runs.reduce((n, r) => n + r.lost, 0);
    const calls = runs.reduce((n, r) => n + r.calls, 0);
    log(`  p50 ${runs.map((r) => r.p50.toFixed(2)).join(', ')} ms, lost ${lost} of ${calls}`);
    const valid = lost === 0 && calls > 0;
    table.push({
      row: '7',
      measure: `older client, ${perSession} questions at once per session, ${sessions} sessions (question → result)`,
      server: 'Parley, two processes through Redis (call on A, answer to B)',
      throughput: valid ? `${Math.round(m('roundsPerSec')).toLocaleString('en-US')} rounds/s` : 'invalid',
      p50: valid ? ms(m('p50')) : '–',
      p99: valid ? ms(m('p99')) : '–',
      vsParley: '',
      cpu: '–',
      bodies: valid ? `${calls.toLocaleString('en-US')} calls, lost 0` : `INVALID: lost ${lost} of ${calls} (${runs.find((r) => r.lostSample)?.lostSample ?? ''})`,
    });
  }

  if (rows.has('5')) {
    log('row 5: inside workerd (miniflare)');
    const workerd = await measureWorkerd(settings);
    const cell: Cell = { ...summarise('Parley Worker in workerd (miniflare)', workerd.runs, workerd.warm) };
    table.push(...cellRows('5', 'tools/call, simple tool, in workerd', [cell], 'req'));
    table.push({ row: '', measure: 'cold start', server: 'new workerd process and isolate → first tools/call answered', throughput: '', p50: `${ms(workerd.toFirstResponse)} (median of ${Math.max(3, settings.runs)})`, p99: '', vsParley: '', cpu: '–', bodies: `first request alone: ${ms(workerd.firstRequest)} ms` });
  }

  if (rows.has('6')) {
    log('row 6: Worker bundle size, memory of pending older-client questions');
    const { code } = await bundleWorker('examples/cloudflare/worker.ts', { minify: true });
    const size = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    table.push({ row: '6', measure: 'Worker bundle (examples/cloudflare/worker.ts, minified, as npm run size)', server: 'esbuild + gzip', throughput: `${size(gzipSync(code).length)} gzip`, p50: '', p99: '', vsParley: '', cpu: '', bodies: `${size(Buffer.byteLength(code))} minified` });
    const count = Number(values.pending);
    const held = await start('parley', [], sessionSecret);
    const memory = await measurePending(held, count);
    const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
    table.push({ row: '', measure: `${count.toLocaleString('en-US')} pending older-client questions (a record each, 100 per session)`, server: 'Parley, one process, memory store', throughput: `RSS ${mb(memory.before)} → ${mb(memory.after)}`, p50: '', p99: '', vsParley: '', cpu: '', bodies: `${(memory.perQuestion / 1024).toFixed(1)} KB each (RSS, with its open SSE connection)` });
  }
} finally {
  await Promise.all(started.map((s) => s.stop()));
  await redis?.stop();
}

const after = machine();
const notes = [
  '- Row 4 is driven by a hand-written client (fetch, reading each call\'s SSE stream and posting the answer), not autocannon; at 8 clients that client, not the server, is the limit.',
  '- Row 5 runs with elicitation off in the Worker (on the edge it needs a distributed store); autocannon reaches workerd through miniflare\'s loopback port.',
];
const command = `npm run bench -- --runs ${settings.runs} --duration ${settings.duration} --warmup ${settings.warmup} --connections ${settings.connections} --rows ${[...rows].join(',')} --pending ${values.pending}${rows.has('7') ? ` --questions-sessions ${values['questions-sessions']} --questions-per-session ${values['questions-per-session']}` : ''}`;
const report = [
  markdownTable(table),
  '',
  'Goals (the issue\'s, compared only within this run):',
  ...goals,
  '',
  ...notes,
  '',
  `Machine: ${before.cpus} × ${before.cpuModel}, Node ${before.node}, ${before.os}. Load average (1 min) before ${before.load.toFixed(2)}, after ${after.load.toFixed(2)}.`,
  `Settings: ${settings.connections} connections, ${settings.runs} runs × ${settings.duration} s after ${settings.warmup} s warm-up per server, medians; each server in its own process; autocannon in the harness process.`,
  `Command: \`${command}\``,
].join('\n');
console.log(report);
if (values.write) {
  const header = '# Benchmark results\n\nThe latest `npm run bench` table (bench/run.ts writes this file with `--write`). Numbers are from one run on one machine; compare only within the table. A load average well above the core count (shown below) means other work shared the CPUs: read the ratios and the server-CPU column rather than the absolute rates. bench/README.md says what changed and what still stands between the elicitation round and its goal.\n\n';
  writeFileSync(new URL('./RESULTS.md', import.meta.url), `${header}${report}\n`);
}
