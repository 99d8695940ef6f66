// The vitest projects (test/architecture/projects.ts): what starts redis-server, chromium or workerd is never a unit
// test, inside the unit project starting any process throws, and no unit file leaves state for the next (they share
// their workers' modules).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { projectFiles, projectOf, startsAProcess } from './projects';

describe('the vitest projects', () => {
  it('sees the helpers that start redis-server, chromium and workerd, and the CLI code that runs node', () => {
    expect(startsAProcess('test/helpers/redis.ts')).toMatch(/imports node:child_process/);
    expect(startsAProcess('test/helpers/redis-cluster.ts')).toMatch(/^test\/helpers\/redis-cluster\.ts imports node:child_process/);
    expect(startsAProcess('test/helpers/chromium.ts')).toMatch(/imports playwright-core \(chromium\)/);
    expect(startsAProcess('test/helpers/workerd.ts')).toMatch(/imports miniflare \(workerd\)/);
    expect(startsAProcess('test/helpers/instances.ts')).toMatch(/imports node:child_process/);
    expect(startsAProcess('test/helpers/store-fixture.ts')).toBe(
      'test/helpers/store-fixture.ts -> test/helpers/redis.ts imports node:child_process (a child process (redis-server, a Parley server, a CLI, npm))',
    );
    expect(startsAProcess('src/cli/index.ts')).toMatch(/-> src\/cli\/dev-runner\.ts imports node:child_process/);
    expect(startsAProcess('test/helpers/requests.ts')).toBeUndefined();
  });

  it('puts the packed package in its own project, and a test file by what it imports', () => {
    expect(projectOf('test/package/install.test.ts')).toBe('package');
    expect(projectOf('test/stores/memory.test.ts')).toBe('unit');
    expect(projectOf('test/stores/redis.test.ts')).toBe('services');
    expect(projectOf('test/architecture/projects.test.ts')).toBe('unit');
  });

  it('refuses, in the unit project, to start a process, and says where such a test belongs', () => {
    // Through require, which the import rule does not read: the setup file is what stops a process the rule missed.
    // `true` does nothing, should the setup file ever be missing.
    const childProcess = createRequire(import.meta.url)('node:child_process') as Record<
      'spawn' | 'execFile' | 'spawnSync' | 'execFileSync' | 'execSync',
      (...args: unknown[]) => unknown
    >;
    const belongs = /A unit test started a process \(true\)\. Tests that start programs belong to the services project/;
    expect(() => childProcess.spawn('true', [])).toThrow(belongs);
    expect(() => childProcess.execFile('true', () => undefined)).toThrow(belongs);
    expect(() => childProcess.spawnSync('true')).toThrow(belongs);
    expect(() => childProcess.execFileSync('true')).toThrow(belongs);
    expect(() => childProcess.execSync('true')).toThrow(belongs);
  });

  it("has no file-level test.override in the unit project: vitest keeps it on the shared test, for the worker's next files", () => {
    const fileLevel = projectFiles().unit.filter((file) => /^test\.(override|scoped)\(/m.test(readFileSync(file, 'utf8')));
    expect(fileLevel, 'put the override in a describe block').toEqual([]);
  });
});
