// The inbox page's generated module: `npm run lint` runs scripts/inbox-page.ts --check, which passes on the committed
// module only while it is what src/inbox/page/ builds to, and fails, naming the file and the fix, once it differs.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const GENERATED = join(ROOT, 'src/inbox/page.generated.ts');
const check = (file: string) =>
  spawnSync(join(ROOT, 'node_modules/.bin/tsx'), ['--conditions=parley-source', 'scripts/inbox-page.ts', '--check', file], {
    cwd: ROOT,
    encoding: 'utf8',
  });

const dir = mkdtempSync(join(tmpdir(), 'parley-inbox-page-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('passes on the committed module: it is what the page builds to', () => {
  const copy = join(dir, 'fresh.ts');
  copyFileSync(GENERATED, copy);
  const result = check(copy);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
});

test('fails when the module differs from what the page builds to, naming the file and the command that rebuilds it', () => {
  const stale = join(dir, 'stale.ts');
  writeFileSync(stale, readFileSync(GENERATED, 'utf8').replace('Submit', 'Send'));
  const result = check(stale);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('stale.ts is stale');
  expect(result.stderr).toContain('npm run inbox-page');
});

test('fails when the module is missing', () => {
  const result = check(join(dir, 'missing.ts'));
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('missing.ts is stale');
});
