// npx tsx bench/profile.ts [scenario] [seconds]: runs Parley (or BENCH_SERVER=node-http, hono ...) under node --cpu-prof against one scenario and prints where the time went.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
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

const name = (process.argv[2] ?? 'simpleCall') as keyof typeof scenarios;
const seconds = Number(process.argv[3] ?? 5);
const dir = 'bench/profiles';
rmSync(dir, { recursive: true, force: true });
const server = await startServer(process.env.BENCH_SERVER ?? 'parley', { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
try {
  const run = await runLoad(server.url, scenarios[name](), { connections: 32, duration: seconds });
  console.log(`${name}: ${Math.round(run.requestsPerSec)} req/s, p50 ${run.p50.toFixed(2)} ms, ${run.valid ? 'valid' : `INVALID (${run.bad} bad)`}`);
} finally {
  await server.stop();
}

const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
const profile = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as Profile;
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// esbuild marks each module of the bundle with a `// path` line: map a bundle line back to its source file.
const markers: [number, string][] = [];
readFileSync(`${BUILD_DIR}${process.env.BENCH_SERVER ?? 'parley'}.mjs`, 'utf8')
  .split('\n')
  .forEach((line, i) => {
    const m = /^\/\/ ((?:src|bench|node_modules)\/\S+)$/.exec(line);
    if (m) markers.push([i, m[1]!.replace(/^node_modules\//, '~/')]);
  });
const sourceOf = (line: number) => markers.findLast(([start]) => start <= line)?.[1] ?? '?';
const fileOf = (n: Node) => (n.callFrame.url.endsWith('parley.mjs') ? sourceOf(n.callFrame.lineNumber) : n.callFrame.url);
const where = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${fileOf(n)}:${n.callFrame.lineNumber + 1}`;
const top = (map: Map<string, number>, count: number) =>
  [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, count).map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`).join('\n');

// Self time by function, and inclusive time by function of Parley's own code (src/).
const selfBy = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, t] of self) {
  selfBy.set(where(byId.get(id)!), (selfBy.get(where(byId.get(id)!)) ?? 0) + t);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur)!;
    const key = where(n);
    if (fileOf(n).startsWith('src/') && !seen.has(key)) {
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + t);
    }
  }
}
console.log(`\nSelf time, top 30 of ${(total / 1e6).toFixed(1)} s sampled:\n${top(selfBy, 30)}`);
console.log(`\nInclusive time of Parley's own functions:\n${top(inclusive, 30)}`);
