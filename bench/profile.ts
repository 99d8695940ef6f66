// npx tsx bench/profile.ts [scenario] [seconds] [--against scenario]: runs Parley (or BENCH_SERVER=node-http, hono ...)
// under node --cpu-prof and prints where the time went, in µs per cycle; with --against, beside another scenario and the difference.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runLoad } from './lib/load';
import { BUILD_DIR, startServer } from './lib/processes';
import * as scenarios from './scenarios';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}
type Name = keyof typeof scenarios;
/** Per function, µs per cycle: its own time, and with everything it called (for Parley's own functions). */
type Times = { self: Map<string, number>; inclusive: Map<string, number>; cycles: number };

const { positionals, values } = parseArgs({ allowPositionals: true, options: { against: { type: 'string' } } });
const name = (positionals[0] ?? 'simpleCall') as Name;
const seconds = Number(positionals[1] ?? 5);
const serverName = process.env.BENCH_SERVER ?? 'parley';

// esbuild marks each module of the bundle with a `// path` line: map a bundle line back to its source file.
function sourceMap(): (line: number) => string {
  const markers: [number, string][] = [];
  readFileSync(`${BUILD_DIR}${serverName}.mjs`, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const m = /^\/\/ ((?:src|bench|node_modules)\/\S+)$/.exec(line);
      if (m) markers.push([i, m[1]!.replace(/^node_modules\//, '~/')]);
    });
  return (line) => markers.findLast(([start]) => start <= line)?.[1] ?? '?';
}

async function profile(scenario: Name): Promise<Times> {
  const dir = `bench/profiles/${scenario}`;
  rmSync(dir, { recursive: true, force: true });
  // One sample every 100 µs: a cycle costs tens of µs, and the default 1 ms leaves too few samples per function.
  const server = await startServer(serverName, { nodeFlags: ['--cpu-prof', '--cpu-prof-interval', '100', `--cpu-prof-dir=${dir}`] });
  let cycles: number;
  try {
    const run = await runLoad(server.url, scenarios[scenario](), { connections: 32, duration: seconds });
    console.log(
      `${scenario}: ${Math.round(run.cyclesPerSec)} cycles/s, p50 ${run.p50.toFixed(2)} ms, ${run.valid ? 'valid' : `INVALID (${run.bad} bad)`}`,
    );
    cycles = run.cyclesPerSec * seconds;
  } finally {
    await server.stop();
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
  const data = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as Profile;
  const byId = new Map(data.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of data.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const source = sourceMap();
  const fileOf = (n: Node) => (n.callFrame.url.endsWith(`${serverName}.mjs`) ? source(n.callFrame.lineNumber) : n.callFrame.url);
  const where = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${fileOf(n)}:${n.callFrame.lineNumber + 1}`;
  const times: Times = { self: new Map(), inclusive: new Map(), cycles };
  // The profile also holds the start-up and the idle wait after the load: counted against the measured cycles, as the bench does.
  data.samples.forEach((id, i) => {
    const us = (data.timeDeltas[i] ?? 0) / cycles;
    const key = where(byId.get(id)!);
    times.self.set(key, (times.self.get(key) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)!;
      const k = where(n);
      if (fileOf(n).startsWith('src/') && !seen.has(k)) {
        seen.add(k);
        times.inclusive.set(k, (times.inclusive.get(k) ?? 0) + us);
      }
    }
  });
  return times;
}

const busy = (t: Times) => [...t.self].filter(([k]) => !k.startsWith('(idle)')).reduce((sum, [, us]) => sum + us, 0);

function table(title: string, main: Map<string, number>, base: Map<string, number> | undefined, count: number): void {
  const keys = [...new Set([...main.keys(), ...(base?.keys() ?? [])])];
  const score = (k: string) => (base ? Math.abs((main.get(k) ?? 0) - (base.get(k) ?? 0)) : (main.get(k) ?? 0));
  const us = (v: number | undefined) => (v ?? 0).toFixed(1).padStart(7);
  console.log(`\n${title}, µs per cycle${base ? `: ${values.against}, ${name}, difference` : ''}`);
  for (const k of keys.sort((a, b) => score(b) - score(a)).slice(0, count))
    console.log(
      base ? `${us(base.get(k))}${us(main.get(k))}${us((main.get(k) ?? 0) - (base.get(k) ?? 0))}  ${k}` : `${us(main.get(k))}  ${k}`,
    );
}

const base = values.against ? await profile(values.against as Name) : undefined;
const main = await profile(name);
console.log(
  `\nBusy (not idle): ${busy(main).toFixed(1)} µs per cycle of ${name}${base ? `, ${busy(base).toFixed(1)} of ${values.against}` : ''}`,
);
table('Self time', main.self, base?.self, 30);
table("With what they call, Parley's own functions", main.inclusive, base?.inclusive, 30);
