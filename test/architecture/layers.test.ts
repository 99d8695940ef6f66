// The floors of src/ (docs/architecture.md): each folder imports only folders on floors below its own, through
// their door (index.ts); nothing below app/ names the whole config; the file graph has no circle; and the engine keeps
// no state of its own at module level (a server's state is the server's).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, folderOf, importEdges, ROOT, sourceFiles } from './imports';

/** From the top down. A folder may import any folder on a lower line, never one on its own line or above. */
const FLOORS: string[][] = [
  ['.', 'cli', 'testing'], // entry points
  ['adapters', 'client'], // platform entries; the MCP client
  ['app'], // the composition root
  ['http', 'stdio', 'inbox'], // transports and the inbox
  ['auth'], // tokens, JWKS, introspection, the well-known documents, people's sign-in
  ['engine'], // dispatch
  ['elicitation'], // elicit() and the Askers
  ['model'], // the model
  ['stores'],
  ['protocol', 'crypto'],
  ['runtime'],
];
/**
 * Inside engine/, by file: the task runtime (loaded on first use, through app/'s #node-only table) above dispatch (both
 * eras' methods and tool calls) above the task store and skills, which know nothing of a request.
 */
const TASK_RUNTIME = new Set([
  'tasks/task-runtime.ts',
  'tasks/task-call.ts',
  'tasks/task-replay.ts',
  'legacy/tasks.ts',
  'legacy/task-status.ts',
]);
const engineFloorOf = (file: string): number => {
  const inside = file.slice('engine/'.length);
  if (TASK_RUNTIME.has(inside)) return 3;
  if (!inside.includes('/') || inside.startsWith('legacy/') || inside === 'tasks/task-methods.ts') return 2;
  return 1;
};
/**
 * Inside auth/, by file: its door; what app/ wires (and parley-mcp/introspection); the lookups of keys and metadata;
 * then the JWT verifier, the identity provider's reading, the token cache and the resource's metadata, which import
 * nothing of auth/.
 */
const AUTH_FLOORS = new Map([
  ...['index.ts'].map((file) => [file, 4] as const),
  ...['bearer.ts', 'well-known.ts', 'sign-in.ts', 'oidc-sign-in.ts', 'introspection.ts'].map((file) => [file, 3] as const),
  ...['jwks.ts', 'discovery.ts', 'as-metadata.ts'].map((file) => [file, 2] as const),
]);
const authFloorOf = (file: string): number => AUTH_FLOORS.get(file.slice('auth/'.length)) ?? 1;
const floorOf = new Map(FLOORS.flatMap((folders, depth) => folders.map((folder) => [folder, FLOORS.length - depth] as const)));

const edges = importEdges();
const across = edges.filter((e) => folderOf(e.from) !== folderOf(e.to));

describe('the floors of src/', () => {
  it('puts every folder on a floor', () => {
    const folders = new Set(sourceFiles().map(folderOf));
    expect([...folders].filter((folder) => !floorOf.has(folder))).toEqual([]);
  });

  it('imports only downward, type imports included', () => {
    const upward = across.filter((e) => floorOf.get(folderOf(e.to))! >= floorOf.get(folderOf(e.from))!);
    expect(upward.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it('enters another folder only through its door (index.ts)', () => {
    // '#node-only' is package.json's table (the edge build swaps the file), and import() loads one file on first use.
    const deep = across.filter((e) => !e.dynamic && e.spec !== '#node-only' && e.to !== `${folderOf(e.to)}/index.ts`);
    expect(deep.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it('imports only downward inside engine/: task runtime, then dispatch, then the task store and skills', () => {
    const inEngine = edges.filter((e) => folderOf(e.from) === 'engine' && folderOf(e.to) === 'engine');
    const upward = inEngine.filter((e) => engineFloorOf(e.to) > engineFloorOf(e.from));
    expect(upward.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
    // Every floor holds files, so the table above still describes the folder.
    const floors = new Set(
      sourceFiles()
        .filter((file) => folderOf(file) === 'engine')
        .map(engineFloorOf),
    );
    expect([...floors].sort()).toEqual([1, 2, 3]);
  });

  it('imports only downward inside auth/: its door, what app/ wires, the lookups, then the verifier and the reading', () => {
    const inAuth = edges.filter((e) => folderOf(e.from) === 'auth' && folderOf(e.to) === 'auth');
    const upward = inAuth.filter((e) => authFloorOf(e.to) > authFloorOf(e.from));
    expect(upward.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
    const floors = new Set(
      sourceFiles()
        .filter((file) => folderOf(file) === 'auth')
        .map(authFloorOf),
    );
    expect([...floors].sort()).toEqual([1, 2, 3, 4]);
  });

  it('has no circle of imports', () => {
    expect(circles(edges)).toEqual([]);
  });

  it('leaves the whole config to app/: nothing below it names ParleyConfig', () => {
    const appFloor = floorOf.get('app')!;
    // model/config.ts defines it and model/index.ts is the door app/ reads it through.
    const allowed = new Set(['model/config.ts', 'model/index.ts']);
    const naming = sourceFiles().filter(
      (file) =>
        floorOf.get(folderOf(file))! < appFloor &&
        !allowed.has(file) &&
        /\bParleyConfig\b|\bparseConfig\b/.test(readFileSync(join(ROOT, 'src', file), 'utf8')),
    );
    expect(naming).toEqual([]);
  });

  it('keeps no module-level state in engine/: no top-level let or var, no WeakMap or WeakSet, no table it writes to', () => {
    // A table at module level is a constant (UPPER_SNAKE, never written); state that lives as long as a server is held
    // by the server (ParleyServer), built by app/, so two servers in one process never share it.
    const found = sourceFiles()
      .filter((file) => folderOf(file) === 'engine')
      .flatMap((file) => {
        const text = readFileSync(join(ROOT, 'src', file), 'utf8');
        const lines = [...text.matchAll(/^(?:export )?(?:let|var) .*$|^(?:export )?const \w+\b[^=]*= new Weak(?:Map|Set)\b.*$/gm)];
        const tables = [...text.matchAll(/^(?:export )?const (\w+)\b[^=]*= new (?:Map|Set)\b/gm)].map((m) => m[1]!);
        const written = tables.filter(
          (name) => !/^[A-Z][A-Z0-9_]*$/.test(name) || new RegExp(`\\b${name}\\.(?:set|add|delete|clear)\\(`).test(text),
        );
        return [...lines.map((m) => `${file}: ${m[0]}`), ...written.map((name) => `${file}: ${name}`)];
      });
    expect(found).toEqual([]);
  });
});
