// The unit project's setup file: a unit test runs in this process only, so starting any process here throws, naming
// what was started and where such a test belongs. A file that passes on this machine (redis-server and chromium
// installed) would otherwise fail on a fresh clone, or make `--project unit` slow.
import childProcess, { ChildProcess } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const refuse = (command: unknown): never => {
  throw new Error(
    `A unit test started a process (${String(command)}). Tests that start programs belong to the services project: ` +
      'vitest.config.ts puts a file there when it, or a test helper it imports, imports node:child_process, playwright-core, ' +
      'miniflare, esbuild or a stdio client transport (test/architecture/projects.ts).',
  );
};

// spawn, exec, execFile and fork all start through ChildProcess#spawn (internal, so not in @types/node); the *Sync ones
// through spawnSync's binding.
(ChildProcess.prototype as unknown as { spawn(options: { file?: string }): never }).spawn = (options) => refuse(options?.file);
childProcess.spawnSync = (command: string) => refuse(command);
childProcess.execSync = (command: string) => refuse(command);
childProcess.execFileSync = (file: string) => refuse(file);
syncBuiltinESMExports(); // so `import { spawnSync } from 'node:child_process'` sees these too
