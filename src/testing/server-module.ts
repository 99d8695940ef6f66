// Finding the server a test file tests: server.ts, else main.ts, in the test file's folder.
// Node-only by nature (the test runner's file system), like the rest of parley-mcp/testing.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { vi } from 'vitest';
import { serverOptionsOf } from '../server';
import type { ServerInput } from '../app';

export const SERVER_MODULES = ['server.ts', 'main.ts'] as const;

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
  return serverOf(await vi.importActual<Record<string, unknown>>(file), file);
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
