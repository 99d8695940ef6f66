// Which vitest project each test file belongs to, read from what it imports: unit (this process only), services
// (it starts a program: redis-server, chromium, workerd, a server or CLI as a child process) or package (the packed
// package, installed). vitest.config.ts builds its projects from this, so a new file lands in the right one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { specifiers } from './imports.js';

const ROOT = join(import.meta.dirname, '../..');

export const PROJECTS = ['unit', 'services', 'package'] as const;
export type Project = (typeof PROJECTS)[number];

/** Modules that start a process when used, and what that is. A file that imports one, itself or through a module of the
 * repository it imports (a helper, a fixture, bench/, src/), is not a unit test. */
const STARTS_A_PROCESS = new Map([
  ['node:child_process', 'a child process (redis-server, a Parley server, a CLI, npm)'],
  ['playwright-core', 'chromium'],
  ['miniflare', 'workerd'],
  ['esbuild', "esbuild's own binary"],
  ['@modelcontextprotocol/sdk/client/stdio.js', 'a stdio server'],
  ['@modelcontextprotocol/client/stdio', 'a stdio server'],
]);

/** Every test file, repository-relative with forward slashes (as vitest's `include` takes them). */
export function testFiles(dir = join(ROOT, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path).split(sep).join('/')] : [];
  });
}

/** The repository's module a relative specifier names, or undefined for a package or a file that is not there (the
 * test fails on its own import then). src/ counts: a test of code that starts a process (the CLI) is not a unit test. */
function resolveLocal(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = normalize(join(dirname(from), spec));
  const stem = base.replace(/\.js$/, '');
  return [base, `${stem}.ts`, join(stem, 'index.ts')].find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** Why a file is not a unit test: the chain of imports down to the module that starts a process; undefined for a unit test. */
export function startsAProcess(file: string, seen = new Set<string>()): string | undefined {
  const path = join(ROOT, file);
  if (seen.has(path)) return undefined;
  seen.add(path);
  for (const { spec } of specifiers(readFileSync(path, 'utf8'))) {
    const what = STARTS_A_PROCESS.get(spec);
    if (what) return `${file} imports ${spec} (${what})`;
    const local = resolveLocal(path, spec);
    const why = local && startsAProcess(relative(ROOT, local).split(sep).join('/'), seen);
    if (why) return `${file} -> ${why}`;
  }
  return undefined;
}

export function projectOf(file: string): Project {
  if (file.startsWith('test/package/')) return 'package';
  return startsAProcess(file) ? 'services' : 'unit';
}

/** The test files of each project. */
export function projectFiles(): Record<Project, string[]> {
  const files: Record<Project, string[]> = { unit: [], services: [], package: [] };
  for (const file of testFiles()) files[projectOf(file)].push(file);
  return files;
}
