// parley init from the source: the files it makes (the Node project, and with --worker the Worker project), the names it
// writes, and what it refuses (test/package installs and runs what it makes from the packed tarball).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { entryOf } from '../../src/cli/dev';
import { init } from '../../src/cli/init';

const own = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
  version: string;
  dependencies: { tsx: string };
};
let parent: string;
let stderr: string;
beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'parley-init-'));
  stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(parent, { recursive: true, force: true });
});

it('makes the project, named after its directory, depending on this parley-mcp and its tsx', async () => {
  expect(await init([join(parent, 'My Tools')])).toBe(0);
  const dir = join(parent, 'My Tools');
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  expect(pkg).toMatchObject({
    name: 'my-tools',
    type: 'module',
    dependencies: { 'parley-mcp': `^${own.version}`, tsx: own.dependencies.tsx },
  });
  expect(readFileSync(join(dir, 'wrangler.toml'), 'utf8')).toContain('name = "my-tools"');
  expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toContain('node_modules/');
  expect(readFileSync(join(dir, 'src/server.ts'), 'utf8')).not.toContain('__NAME__');
});

it('pins the wrangler that runs on Node 20, with scripts that use it, and ignores its build output', async () => {
  expect(await init([join(parent, 'worker-app')])).toBe(0);
  const dir = join(parent, 'worker-app');
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  expect(pkg.devDependencies.wrangler).toBe('4.86.0'); // exact: newer wranglers need Node 22.12
  expect(pkg.scripts).toMatchObject({ 'worker:dev': 'wrangler dev', 'worker:deploy': 'wrangler deploy' });
  expect(readFileSync(join(dir, '.gitignore'), 'utf8').split('\n')).toContain('dist/');
});

it("says the inbox's default store needs better-sqlite3, and allows its build, so the first persistent question runs", async () => {
  expect(await init([join(parent, 'inbox-app')])).toBe(0);
  const dir = join(parent, 'inbox-app');
  expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).allowScripts).toMatchObject({ 'better-sqlite3': true });
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  expect(readme).toContain('npm install better-sqlite3');
  // Next.js does not route app/_frontmcp: the README names the route the inbox is served from there.
  expect(readme).toContain('app/%5Ffrontmcp/[...path]/route.ts');
  // npm start prints the URL once, in serve()'s banner.
  expect(readFileSync(join(dir, 'src/main.ts'), 'utf8')).not.toContain('console.log');
});

it('parley dev with no entry runs the module that exports the server, not src/main.ts, which serves it itself', async () => {
  expect(await init([join(parent, 'app')])).toBe(0);
  expect(entryOf(undefined, join(parent, 'app'))).toBe(join(parent, 'app', 'src/server.ts'));
});

it('makes it in an empty directory that exists', async () => {
  mkdirSync(join(parent, 'empty'));
  expect(await init([join(parent, 'empty')])).toBe(0);
});

it('refuses a directory with files in it, and a file, touching nothing', async () => {
  mkdirSync(join(parent, 'full'));
  writeFileSync(join(parent, 'full', 'notes.txt'), 'mine');
  writeFileSync(join(parent, 'file'), 'mine');
  for (const target of ['full', 'file']) {
    stderr = '';
    expect(await init([join(parent, target)])).toBe(1);
    expect(stderr).toMatch(/^parley init: .* already exists and is not an empty directory: choose a new one/);
  }
  expect(readFileSync(join(parent, 'full', 'notes.txt'), 'utf8')).toBe('mine');
});

it('prints its usage for --help, and asks for a directory when given none', async () => {
  expect(await init(['--help'])).toBe(0);
  expect(stderr).toContain('parley init <dir>');
  stderr = '';
  expect(await init([])).toBe(1);
  expect(stderr).toContain('give one directory to make the project in');
});

describe('parley init --worker', () => {
  it('makes a Worker project: Durable Objects bound, tasks and the inbox on, npm run dev in wrangler dev, no Node or Next.js entry', async () => {
    expect(await init([join(parent, 'Edge Tools'), '--worker'])).toBe(0);
    const dir = join(parent, 'Edge Tools');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: 'edge-tools', dependencies: { 'parley-mcp': `^${own.version}` } });
    expect(pkg.devDependencies.wrangler).toBe('4.86.0');
    expect(pkg.scripts).toEqual({
      dev: 'wrangler dev',
      test: 'vitest run',
      typecheck: 'tsc',
      build: 'wrangler deploy --dry-run --outdir dist',
      deploy: 'wrangler deploy',
    });
    for (const file of ['src/main.ts', 'app', 'next.config.mjs']) expect(existsSync(join(dir, file))).toBe(false);
    const toml = readFileSync(join(dir, 'wrangler.toml'), 'utf8');
    expect(toml).toContain('name = "edge-tools"');
    expect(toml).toMatch(/\[\[durable_objects\.bindings\]\]\nname = "PARLEY_STORE"\nclass_name = "ParleyStore"/);
    expect(toml).toMatch(/\[\[migrations\]\]\ntag = "v1"\nnew_sqlite_classes = \["ParleyStore"\]/);
    // The Worker bound to itself, under its own name, so deadlines fire by its Durable Objects' alarms.
    expect(toml).toMatch(/\[\[services\]\]\nbinding = "PARLEY_SELF"\nservice = "edge-tools"/);
    const worker = readFileSync(join(dir, 'src/worker.ts'), 'utf8');
    for (const line of [
      "export { ParleyStore } from 'parley-mcp/cloudflare';",
      'enableDurableObjects();',
      'enableTasks();',
      'enableInbox();',
    ])
      expect(worker).toContain(line);
    expect(readFileSync(join(dir, 'src/greet.tool.ts'), 'utf8')).toContain("execution: { taskSupport: 'optional' }");
    expect(readFileSync(join(dir, '.gitignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['.dev.vars', '.wrangler/', 'dist/']));
    expect(readFileSync(join(dir, 'src/server.ts'), 'utf8')).not.toContain('__NAME__');
  });

  it('names the secrets to set, and how the inbox is reached on the Worker', async () => {
    expect(await init([join(parent, 'edge'), '--worker'])).toBe(0);
    const readme = readFileSync(join(parent, 'edge', 'README.md'), 'utf8');
    expect(readme).toContain('npx wrangler secret put VAULT_SECRET');
    expect(readme).toContain('npx wrangler secret put MCP_SESSION_SECRET');
    expect(readme).toContain('.dev.vars');
    expect(readme).not.toContain('Not on Workers yet');
    expect(readme).toMatch(/## The inbox\n\nA question asked with `persist: \{ key \}`/);
    expect(readme).toContain('npx wrangler secret put MCP_ELICITATION_SECRET'); // for sign-in at an identity provider
    const tools = readFileSync(join(parent, 'edge', 'src/server.ts'), 'utf8');
    expect(tools).toContain('tools: [Greet, Approve, InboxLink]');
    expect(readFileSync(join(parent, 'edge', 'src/approve.tool.ts'), 'utf8')).toContain('persist: { key:');
  });
});
