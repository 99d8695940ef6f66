// npm test's first step finds the programs the suite needs: with them on PATH it says nothing; without them, and no
// apt-get to install them, it stops at once with the exact command to run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const SCRIPT = join(import.meta.dirname, '../../scripts/system-deps.mjs');
const run = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, [SCRIPT], { env, encoding: 'utf8' });

// A PATH that holds only a shell: redis-server, chromium, script, valgrind and apt-get are all missing there.
const bare = mkdtempSync(join(tmpdir(), 'parley-path-'));
symlinkSync(spawnSync('sh', ['-c', 'command -v sh'], { encoding: 'utf8' }).stdout.trim(), join(bare, 'sh'));
afterAll(() => rmSync(bare, { recursive: true, force: true }));

test('passes silently when every program is on PATH', () => {
  const result = run(process.env);
  expect(result.status).toBe(0);
  expect(result.stderr).toBe('');
});

test('without the programs and without apt-get, stops at once naming each and the command that installs them', () => {
  const result = run({ PATH: bare });
  expect(result.status).toBe(1);
  for (const program of ['redis-server', 'chromium', 'script', 'valgrind']) expect(result.stderr).toContain(`${program} is not installed`);
  expect(result.stderr).toMatch(/apt-get update && apt-get install -y --no-install-recommends redis-server chromium bsdutils valgrind/);
});
