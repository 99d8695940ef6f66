// Parley as a user installs it: `npm pack` once, the tarball installed into fresh projects, and in each a real
// elicitation round with the official v2 client (2026-07-28) and the v1 client (2025-11-25).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkClients, CLIENT_PACKAGES, dispose, FIXTURES, ROOT, npmInstall, packOnce, project, runtime, sh, startApp } from './helpers';

const ROUND = { asked: ['Close ticket T-7?'], result: { closed: true, id: 'T-7' } };
const BOTH = [
  { client: 'v2', version: '2026-07-28', ...ROUND },
  { client: 'v1', version: '2025-11-25', ...ROUND },
];
const PKG = JSON.stringify({ name: 'user-app', private: true, type: 'module' });
const read = (file: string) => readFileSync(join(FIXTURES, file), 'utf8');

let tarball: string;
const dirs: string[] = [];
const fresh = (files: Record<string, string>, from: string[] = []) => {
  const dir = project({ 'package.json': PKG, ...files }, from);
  dirs.push(dir);
  return dir;
};
beforeAll(async () => {
  tarball = await packOnce();
}, 180_000);
afterAll(() => Promise.all(dirs.map(dispose)), 120_000);

describe('the tarball', () => {
  it('holds only what a user needs, and publint and attw find nothing wrong', { timeout: 120_000 }, async () => {
    const { stdout } = await sh(ROOT, 'tar', ['-tzf', tarball]);
    const paths = stdout
      .trim()
      .split('\n')
      .map((p) => p.replace(/^package\//, ''));
    expect(new Set(paths.map((p) => p.split('/')[0]))).toEqual(
      new Set(['dist', 'bin', 'templates', 'README.md', 'LICENSE', 'CHANGELOG.md', 'package.json']),
    );
    // TypeScript only in the templates parley init copies (test/package/project.test.ts runs what it makes).
    expect(paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts') && !p.startsWith('templates/'))).toEqual([]);
    expect(paths).toContain('templates/app/gitignore');
    await sh(ROOT, process.execPath, ['node_modules/publint/src/cli.js', '--strict', tarball]);
    await sh(ROOT, process.execPath, ['node_modules/@arethetypeswrong/cli/dist/index.js', tarball, '--profile', 'esm-only']);
  });
});

describe('a plain JavaScript project on Node, no TypeScript tooling', () => {
  let dir: string;
  beforeAll(async () => {
    dir = fresh({}, ['server.mjs', 'serve.mjs', 'bun-serve.mjs', 'deno-serve.mjs', 'missing-driver.mjs', 'check.mjs']);
    await npmInstall(dir, [tarball, ...CLIENT_PACKAGES]);
  }, 240_000);

  it('serves with parley-mcp/node, and both official clients complete a round', { timeout: 60_000 }, async () => {
    expect(existsSync(join(dir, 'node_modules/typescript'))).toBe(false);
    for (const driver of ['better-sqlite3', 'ioredis', '@upstash/redis']) expect(existsSync(join(dir, 'node_modules', driver))).toBe(false);
    const app = await startApp(dir, process.execPath, ['serve.mjs']);
    try {
      expect(await checkClients(dir, app.url)).toEqual(BOTH);
    } finally {
      await app.stop();
    }
  });

  it('refuses a configuration whose driver is not installed with one line naming the package', { timeout: 30_000 }, async () => {
    const { stdout, stderr } = await sh(dir, process.execPath, ['missing-driver.mjs']);
    expect(stdout.trim()).toBe('STATUS 503');
    const errors = stderr.split('\n').filter((line) => line.includes('ERROR'));
    expect(errors).toEqual([
      expect.stringContaining('SQLite needs the better-sqlite3 package, which is not installed: run npm install better-sqlite3'),
    ]);
    expect(stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|\n\s+at /);
  });

  it.each(['node@22', 'node@24'] as const)(
    'runs on %s (the registry package), both clients included',
    { timeout: 180_000 },
    async (spec) => {
      const node = await runtime(spec);
      const app = await startApp(dir, node, ['serve.mjs']);
      try {
        expect(await checkClients(dir, app.url, ['v2', 'v1'], node)).toEqual(BOTH);
      } finally {
        await app.stop();
      }
    },
  );

  it.each([
    ['Bun (Bun.serve)', 'bun', ['bun-serve.mjs']],
    ['Deno (Deno.serve)', 'deno', ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys', 'deno-serve.mjs']],
  ] as const)('serves createFetchHandler on %s, both clients included', { timeout: 180_000 }, async (_name, spec, args) => {
    const bin = await runtime(spec);
    const app = await startApp(dir, bin, [...args], { DENO_NO_UPDATE_CHECK: '1' });
    try {
      expect(await checkClients(dir, app.url)).toEqual(BOTH);
    } finally {
      await app.stop();
    }
  });
});

describe('a TypeScript project compiled by tsc and run by node', () => {
  let dir: string;
  const configs = {
    'nodenext, experimentalDecorators': { module: 'nodenext', moduleResolution: 'nodenext', experimentalDecorators: true },
    'nodenext, standard decorators': { module: 'nodenext', moduleResolution: 'nodenext' },
    'bundler, experimentalDecorators': { module: 'esnext', moduleResolution: 'bundler', experimentalDecorators: true },
    'bundler, standard decorators': { module: 'esnext', moduleResolution: 'bundler' },
  };
  beforeAll(async () => {
    dir = fresh({ 'src/server.ts': read('ts/server.ts'), 'src/serve.ts': read('ts/serve.ts') }, ['check.mjs']);
    await npmInstall(dir, [tarball, ...CLIENT_PACKAGES, 'typescript@5.9.3', '@types/node@20.19.43']);
  }, 240_000);

  it.each(Object.entries(configs))(
    '%s: tsc reports nothing (skipLibCheck off, no @types/better-sqlite3), and the output serves both clients',
    { timeout: 90_000 },
    async (name, options) => {
      const out = `out-${name.replace(/\W+/g, '-')}`;
      const tsconfig = {
        compilerOptions: { target: 'es2022', strict: true, skipLibCheck: false, types: ['node'], outDir: out, rootDir: 'src', ...options },
        include: ['src'],
      };
      const file = `tsconfig.${out}.json`;
      await sh(dir, 'sh', ['-c', `echo '${JSON.stringify(tsconfig)}' > ${file}`]);
      await sh(dir, process.execPath, ['node_modules/typescript/bin/tsc', '-p', file]);
      const app = await startApp(dir, process.execPath, [`${out}/serve.js`]);
      try {
        expect(await checkClients(dir, app.url)).toEqual(BOTH);
      } finally {
        await app.stop();
      }
    },
  );

  it('parley dev runs the TypeScript server with plain Node from the installed package', { timeout: 60_000 }, async () => {
    const dev = await startApp(
      dir,
      process.execPath,
      ['node_modules/.bin/parley', 'dev', 'src/server.ts', '--port', '0'],
      {},
      /(http:\/\/127\.0\.0\.1:\d+\/mcp)/,
    );
    try {
      expect(await checkClients(dir, dev.url, ['v2'])).toEqual([BOTH[0]]);
    } finally {
      await dev.stop();
    }
  });
});

describe('a vitest project running a docs test through parley-mcp/testing', () => {
  it('passes test/docs/confirm as written', { timeout: 240_000 }, async () => {
    const docs = join(FIXTURES, '../../docs/confirm');
    const files = Object.fromEntries(
      ['server.ts', 'close-ticket.tool.ts', 'close-ticket.test.ts'].map((f) => [`test/${f}`, readFileSync(join(docs, f), 'utf8')]),
    );
    const dir = fresh({
      ...files,
      'tsconfig.json': JSON.stringify({ compilerOptions: { experimentalDecorators: true, target: 'es2022' } }),
    });
    await npmInstall(dir, [tarball, 'vitest@4.1.12', 'vite@8.3.8']);
    const { stdout } = await sh(dir, process.execPath, ['node_modules/vitest/vitest.mjs', 'run'], { CI: 'true', NO_COLOR: '1' });
    expect(stdout).toMatch(/Tests\s+3 passed \(3\)/);
  });
});
