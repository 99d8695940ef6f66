import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, z } from 'parley-mcp';
import { describeModuleError } from '../../src/cli/module-error';
import { main } from '../../src/cli/index';
import { buildServer } from '../../src/app/build-server';

const SRC = resolve(__dirname, '../../src');
// Under vitest's transform the line is approximate; the exact line under tsx is checked in dev.test.ts.
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as Error,
  );

@Tool({ name: 'typo', inputSchema: { id: 'string' } as never })
class Typo extends ToolContext {
  execute() {
    return 'never';
  }
}

@Tool({ name: 'twice', inputSchema: { id: z.string() } })
class Twice extends ToolContext {
  execute() {
    return 'once';
  }
}

describe('errors in a server module name the file and line to fix', () => {
  it('a schema written as a string: the tool, the field, and where the class is', async () => {
    @App({ id: 'bad', tools: [Typo] })
    class Bad {}
    const error = await errorOf(buildServer({ info: { name: 'x', version: '1' }, apps: [Bad] }));
    expect(error?.message).toMatch(/^Tool "typo": "id" is not a Zod type: write id: z\.string\(\)/);
    expect(describeModuleError(error, 'entry.ts', SRC)).toMatch(
      new RegExp(`^${__filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(:\\d+){2}: Tool "typo"`),
    );
  });

  it('a duplicate tool name: where the second declaration is', async () => {
    @App({ id: 'dup', tools: [Twice, Twice] })
    class Dup {}
    const error = await errorOf(buildServer({ info: { name: 'x', version: '1' }, apps: [Dup] }));
    expect(describeModuleError(error, 'entry.ts', SRC)).toMatch(
      new RegExp(`${__filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(:\\d+){2}: Duplicate tool name "twice"`),
    );
  });

  it('an error thrown while the module loads: its first frame outside Parley', () => {
    const error = new Error('boom');
    error.stack = `Error: boom\n    at build (${SRC}/server/instance.ts:10:5)\n    at file:///home/me/app/server.ts:7:9\n    at node:internal/x:1:1`;
    expect(describeModuleError(error, '/home/me/app/server.ts', SRC)).toBe('/home/me/app/server.ts:7:9: boom');
  });
});

describe('a syntax error in a JavaScript entry, which Node reports with no position', () => {
  // The error as Node hands it to `await import()` of a .mjs (no file, no line: only Node's own frames).
  const nodeError = (message: string) => {
    const error = new SyntaxError(message);
    error.stack = `SyntaxError: ${message}\n    at compileSourceTextModule (node:internal/modules/esm/utils:346:16)\n    at async ModuleJob._link (node:internal/modules/esm/module_job:148:19)`;
    return error;
  };
  const project = mkdtempSync(join(tmpdir(), 'parley-mjs-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('names the file, line and column, and what is wrong', () => {
    const entry = join(project, 'server.mjs');
    writeFileSync(entry, 'export default {\n  info: { name: "x", version: "1" },\n  apps: [\n  oops here],\n};\n');
    expect(describeModuleError(nodeError("Unexpected identifier 'here'"), entry, SRC)).toBe(
      `${entry}:4:8: SyntaxError: Unexpected identifier 'here'`,
    );
  });

  it('says what to do about a decorator in JavaScript', () => {
    const entry = join(project, 'decorated.mjs');
    writeFileSync(
      entry,
      "import { FrontMcp } from 'parley-mcp';\n\n@FrontMcp({ info: { name: 'x', version: '1' } })\nexport default class S {}\n",
    );
    expect(describeModuleError(nodeError('Invalid or unexpected token'), entry, SRC)).toMatch(
      new RegExp(
        `^${entry.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:1: SyntaxError: Invalid or unexpected token \\(JavaScript has no decorator syntax: call the decorator as a function`,
      ),
    );
  });
});

describe('the parley command', () => {
  it('refuses an unknown command with the usage, and exits 1', async () => {
    expect(await main(['frobnicate'])).toBe(1);
    expect(await main(['--help'])).toBe(0);
  });

  it('parley dev refuses a missing entry', async () => {
    expect(await main(['dev', resolve(dirname(__filename), 'no-such-server.ts')])).toBe(1);
  });
});
