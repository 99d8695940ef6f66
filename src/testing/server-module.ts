// Finding the server a test file tests: server.ts, else main.ts, in the test file's folder.
// Node-only by nature (the test runner's file system), like the rest of parley-mcp/testing.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { vi } from 'vitest';
import { serverOptionsOf } from '../model';
import type { ServerInput } from '../app';

const SERVER_MODULES = ['server.ts', 'main.ts'] as const;

const found = new Map<string, Promise<ServerInput>>();

export function serverNextTo(testFile: string): Promise<ServerInput> {
  const folder = dirname(testFile);
  let server = found.get(folder);
  if (!server) found.set(folder, (server = load(folder)));
  return server;
}

async function load(folder: string): Promise<ServerInput> {
  const file = SERVER_MODULES.map((name) => join(folder, name)).find((path) => existsSync(path));
  if (!file)
    throw new Error(
      `parley-mcp/testing: no server.ts or main.ts next to the test in ${folder}. Add one, or name the server with test.override({ server })`,
    );
  // Through vitest's module runner, which compiles TypeScript: a plain import() from parley-mcp/testing, which
  // vitest loads from node_modules as it is, would reach Node, and Node does not load server.ts.
  return serverOf(
    await vi.importActual<Record<string, unknown>>(file).catch((error: unknown) => Promise.reject(explained(error, file))),
    file,
  );
}

const DECORATOR = /^\s*@[A-Za-z_$][\w$]*\s*\(/m;

/**
 * vitest 4 compiles TypeScript's legacy decorators only: standard ones (no `experimentalDecorators` in the tsconfig
 * vitest reads for the file) reach Node as written, which fails with a bare `SyntaxError: Invalid or unexpected token`.
 */
function explained(error: unknown, file: string): unknown {
  if (!(error instanceof SyntaxError) || !DECORATOR.test(readFileSync(file, 'utf8'))) return error;
  return new SyntaxError(
    `parley-mcp/testing: vitest could not compile ${file} (${error.message}): vitest 4 compiles only legacy decorators, and this file's were left as standard decorators. Set "experimentalDecorators": true in the tsconfig.json that includes it (Parley's decorators take both forms), or call the decorators as functions`,
    { cause: error },
  );
}

/** The module's server: its default export when that is a @FrontMcp class, else its `config`, else its one exported @FrontMcp class. */
export function serverOf(module: Record<string, unknown>, file: string): ServerInput {
  const decorated = (value: unknown): value is Function => typeof value === 'function' && serverOptionsOf(value) !== undefined;
  if (decorated(module.default)) return module.default;
  if (typeof module.config === 'object' && module.config !== null) return module.config as ServerInput;
  const classes = Object.values(module).filter(decorated);
  if (classes.length === 1) return classes[0]!;
  throw new Error(
    classes.length > 1
      ? `parley-mcp/testing: ${file} exports ${classes.length} @FrontMcp classes; export one as default, or name it with test.override({ server })`
      : `parley-mcp/testing: ${file} exports no @FrontMcp class and no \`config\``,
  );
}
