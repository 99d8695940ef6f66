// What one pending older-client question keeps alive (issue #48): row 6's server and driver (bench/lib/pending-memory.ts's
// path), with heap snapshots before and after `count` questions are asked (sessions opened first, so the difference is
// the questions'), and the objects new in the second snapshot in bytes per question: grouped by their owner (OWNERS,
// below), then by kind and name (STRINGS=1: strings by their first characters).
// Run: npx tsx --conditions=parley-source bench/pending-heap.ts [count=1000] [top=40]
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { askAndLeave, openSession } from './lib/legacy-round';
import { startServer } from './lib/processes';

const [count = 1000, top = 40] = process.argv.slice(2).map(Number);
const dir = mkdtempSync(join(tmpdir(), 'parley-heap-'));

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]] };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/**
 * Who holds what: the first object of these classes met going up an object's retainers (its first one, a new object's
 * first, so that what a question made is followed before what it was kept in).
 */
const OWNERS = new Map<string, string>([
  ...['ServerResponse', 'IncomingMessage', 'Socket', 'HTTPParser', 'TCP', 'ReadableState', 'WritableState', 'HTTPServerAsyncResource'].map(
    (name) => [name, "Node's HTTP connection (socket, parser, request, response)"] as const,
  ),
  ['Timeout', 'timers'],
  ...['EventStream', 'SourceController', 'StreamedResponse'].map((name) => [name, "the call's event stream"] as const),
  ['MemoryStore', "the memory store's records (sealed question, open token)"],
  ['LocalChannels', "the answer's subscription"],
  ['LocalWaiters', 'the waiter and its count'],
  ['PendingCounts', 'the waiter and its count'],
  ['PendingQuestions', 'the pending questions (session watch)'],
  ['QuestionKeys', 'store names kept made (a cache)'],
  ['SessionTable', "the session's tables (calls, streams)"],
  ['Generator', 'suspended async functions (frames, awaited promises)'],
  ...['ElicitRun', 'StreamAsker', 'ConfirmOrder'].map((name) => [name, "the tool's run (context, asker, elicit state)"] as const),
  ['AbortController', "the call's AbortController and its listeners"],
  ['AbortSignal', "the call's AbortController and its listeners"],
]);

/** The owner (OWNERS) of each node `isNew` says is new, by id. */
function ownersOf(snap: Snapshot, isNew: (id: number) => boolean): Map<number, string> {
  const fields = snap.snapshot.meta.node_fields;
  const width = fields.length;
  const [nameAt, idAt, edgesAt, kindAt] = ['name', 'id', 'edge_count', 'type'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
    number,
  ];
  const edgeFields = snap.snapshot.meta.edge_fields;
  const edgeWidth = edgeFields.length;
  const [edgeKindAt, toAt] = ['type', 'to_node'].map((f) => edgeFields.indexOf(f)) as [number, number];
  const weak = snap.snapshot.meta.edge_types[0].indexOf('weak');
  const kinds = snap.snapshot.meta.node_types[0];
  const count = snap.nodes.length / width;
  const fresh = new Uint8Array(count);
  for (let n = 0; n < count; n++) fresh[n] = isNew(snap.nodes[n * width + idAt]!) ? 1 : 0;
  const byNew = new Int32Array(count).fill(-1);
  const byAny = new Int32Array(count).fill(-1);
  for (let n = 0, e = 0; n < count; n++) {
    const edges = snap.nodes[n * width + edgesAt]!;
    for (let k = 0; k < edges; k++, e += edgeWidth) {
      if (snap.edges[e + edgeKindAt] === weak) continue;
      const to = snap.edges[e + toAt]! / width;
      if (byAny[to] === -1) byAny[to] = n;
      if (fresh[n] && byNew[to] === -1) byNew[to] = n;
    }
  }
  const owners = new Map<number, string>();
  for (let n = 0; n < count; n++) {
    if (!fresh[n]) continue;
    let owner = 'no owner within 40 retainers';
    for (let at = n, depth = 0; at >= 0 && depth < 40; depth++) {
      const kind = kinds[snap.nodes[at * width + kindAt]!];
      const found = kind === 'object' ? OWNERS.get(snap.strings[snap.nodes[at * width + nameAt]!]!) : undefined;
      if (found) {
        owner = found;
        break;
      }
      at = byNew[at]! >= 0 ? byNew[at]! : byAny[at]!;
    }
    owners.set(snap.nodes[n * width + idAt]!, owner);
  }
  return owners;
}

/** Every node of a snapshot: id → [kind, name, self size]. */
function nodesOf(
  file: string,
  owners?: (snap: Snapshot) => Map<number, string>,
): Map<number, [string, string, number]> & { owners?: Map<number, string> } {
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
  return Object.assign(nodes, owners ? { owners: owners(snap) } : {});
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
  const second = nodesOf(await snapshot(server.pid), (snap) => ownersOf(snap, (id) => !first.has(id)));
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
  const byOwner = new Map<string, number>();
  for (const [id, [, , size]] of second)
    if (!first.has(id)) byOwner.set(second.owners!.get(id)!, (byOwner.get(second.owners!.get(id)!) ?? 0) + size);
  console.log('| held by | bytes per question |\n|---|---|');
  for (const [owner, bytes] of [...byOwner].sort((a, b) => b[1] - a[1])) console.log(`| ${owner} | ${(bytes / count).toFixed(0)} |`);
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
