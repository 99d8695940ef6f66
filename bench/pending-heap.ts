// What one pending older-client question keeps alive (issue #48): row 6's server and driver (bench/lib/pending-memory.ts's
// path), with heap snapshots before and after `count` questions are asked (sessions opened first, so the difference is
// the questions'), and the objects new in the second snapshot grouped by kind and name, in bytes per question.
// Run: npx tsx --conditions=parley-source bench/pending-heap.ts [count=1000] [top=40]
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { askAndLeave, openSession } from './lib/legacy-round';
import { startServer } from './lib/processes';

const [count = 1000, top = 40] = process.argv.slice(2).map(Number);
const dir = mkdtempSync(join(tmpdir(), 'parley-heap-'));

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Every node of a snapshot: id → [kind, name, self size]. */
function nodesOf(file: string): Map<number, [string, string, number]> {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const [kinds] = snap.snapshot.meta.node_types;
  const width = fields.length;
  const [at, name, id, size] = ['type', 'name', 'id', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number, number];
  const nodes = new Map<number, [string, string, number]>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const kind = kinds[snap.nodes[i + at]!]!;
    // A string's name is its text: grouped as one kind, as are numbers and concatenated strings.
    // With STRINGS set, strings by their first characters (digits and random parts made alike), to tell what they are.
    const text = snap.strings[snap.nodes[i + name]!]!;
    const label = ['string', 'concatenated string', 'sliced string'].includes(kind)
      ? process.env.STRINGS
        ? JSON.stringify(
            text
              .slice(0, 40)
              .replace(/[A-Za-z0-9_-]{16,}/g, '…')
              .replace(/\d+/g, '9'),
          )
        : ''
      : ['number', 'hidden'].includes(kind)
        ? ''
        : text.slice(0, 60);
    nodes.set(snap.nodes[i + id]!, [kind, label, snap.nodes[i + size]!]);
  }
  return nodes;
}

/** Asks the server (started with --heapsnapshot-signal=SIGUSR1) for a snapshot and waits until it is written. */
async function snapshot(pid: number): Promise<string> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR1');
  for (let i = 0; i < 600; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const file = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    // Written once it ends as a snapshot does (`]}` after the strings) and its size stopped changing.
    if (file) {
      const path = join(dir, file);
      for (let last = -1; ; ) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const size = statSync(path).size;
        if (size === last && readFileSync(path, 'utf8').trimEnd().endsWith(']}')) return path;
        last = size;
      }
    }
  }
  throw new Error('no heap snapshot was written');
}

const server = await startServer('parley', {
  nodeFlags: ['--heapsnapshot-signal=SIGUSR1', `--diagnostic-dir=${dir}`],
  env: { MCP_SESSION_SECRET: 'bench-session-secret-0123456789abcdef' },
});
const calls = Array.from({ length: count }, () => new AbortController());
try {
  const sessions = await Promise.all(Array.from({ length: Math.ceil(count / 100) }, () => openSession(server.url)));
  // One question first on a session of its own, so what the first question of a process compiles is not counted.
  const warm = new AbortController();
  await askAndLeave(server.url, await openSession(server.url), 0, warm.signal);
  const first = nodesOf(await snapshot(server.pid));
  for (let start = 0; start < count; start += 500)
    await Promise.all(
      Array.from({ length: Math.min(500, count - start) }, (_, i) =>
        askAndLeave(server.url, sessions[Math.floor((start + i) / 100)]!, start + i + 1, calls[start + i]!.signal),
      ),
    );
  const second = nodesOf(await snapshot(server.pid));
  warm.abort();
  const groups = new Map<string, { n: number; bytes: number }>();
  let total = 0;
  for (const [id, [kind, label, size]] of second) {
    if (first.has(id)) continue;
    const key = `${kind}\t${label}`;
    const group = groups.get(key) ?? { n: 0, bytes: 0 };
    group.n++;
    group.bytes += size;
    groups.set(key, group);
    total += size;
  }
  console.log(`${count} pending questions: ${(total / count).toFixed(0)} bytes of new heap objects each (snapshots after a full GC)`);
  console.log('| kind | name | per question | bytes per question |\n|---|---|---|---|');
  for (const [key, { n, bytes }] of [...groups].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top)) {
    const [kind, label] = key.split('\t');
    console.log(`| ${kind} | ${label || '—'} | ${(n / count).toFixed(2)} | ${(bytes / count).toFixed(0)} |`);
  }
} finally {
  for (const call of calls) call.abort();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
