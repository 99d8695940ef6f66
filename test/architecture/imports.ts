// The import graph of src/, read from the source text: every static, type-only, re-export and dynamic import.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

export interface Edge {
  from: string; // src-relative file, e.g. 'engine/methods.ts'
  to: string; // src-relative file
  spec: string;
  /** import('…'): loaded on first use, so it may name the file itself (a door would load the whole floor). */
  dynamic: boolean;
}

export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const COMMENT = /\/\*[\s\S]*?\*\/|(^|[^:'"`])\/\/.*$/gm;

/** What a specifier names inside src/, or undefined for a package. `#node-only` is package.json's table, in app/. */
function resolve(from: string, spec: string): string | undefined {
  if (spec === '#node-only') return 'app/node-only.ts';
  if (!spec.startsWith('.')) return undefined;
  const base = normalize(join(dirname(from), spec)).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')])
    if (existsSync(join(SRC, candidate)) && statSync(join(SRC, candidate)).isFile()) return candidate;
  throw new Error(`${from}: cannot resolve '${spec}'`);
}

/** Every module a TypeScript source names in an import, export … from or import(), comments left out. */
export function specifiers(text: string): { spec: string; dynamic: boolean }[] {
  return [...text.replace(COMMENT, '$1').matchAll(SPECIFIER)].map((match) => ({
    spec: match[1] ?? match[2]!,
    dynamic: match[2] !== undefined,
  }));
}

export function importEdges(): Edge[] {
  return sourceFiles().flatMap((from) =>
    specifiers(readFileSync(join(SRC, from), 'utf8')).flatMap(({ spec, dynamic }) => {
      const to = resolve(from, spec);
      return to ? [{ from, to, spec, dynamic }] : [];
    }),
  );
}

/** The folder a file belongs to: its first path segment, or '.' for a file at src/'s top (index.ts). */
export const folderOf = (file: string): string => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.');

/** Circles of the file graph: strongly connected groups of more than one file (Tarjan). */
export function circles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return found;
}
