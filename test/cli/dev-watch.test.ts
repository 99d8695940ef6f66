// parley dev's watch survives what editors do on save: a temp file renamed over the source, again and again.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { watchTree, type TreeWatch } from '../../src/cli/dev-watch';

let dir: string;
let watching: TreeWatch;
let seen: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parley-watch-'));
  mkdirSync(join(dir, 'tools'));
  mkdirSync(join(dir, 'node_modules'));
  writeFileSync(join(dir, 'tools', 'close.ts'), 'export const v = 1;\n');
  seen = [];
  watching = watchTree(
    dir,
    (file) => seen.push(file),
    (path) => path.startsWith('node_modules'),
  );
});
afterEach(() => {
  watching.close();
  rmSync(dir, { recursive: true, force: true });
});

const sees = async (file: string) => {
  await vi.waitFor(() => expect(seen).toContain(file), { timeout: 3_000, interval: 20 });
  seen.length = 0;
};

it('sees every edit of a file that sed -i replaces each time', async () => {
  for (const n of [2, 3, 4]) {
    execFileSync('sed', ['-i', `s/v = [0-9]*/v = ${n}/`, join(dir, 'tools', 'close.ts')]);
    await sees(join('tools', 'close.ts'));
  }
});

it('sees a save that renames a temp file over the source, then a plain write', async () => {
  writeFileSync(join(dir, 'tools', '.close.ts.tmp'), 'export const v = 9;\n');
  renameSync(join(dir, 'tools', '.close.ts.tmp'), join(dir, 'tools', 'close.ts'));
  await sees(join('tools', 'close.ts'));
  writeFileSync(join(dir, 'tools', 'close.ts'), 'export const v = 10;\n');
  await sees(join('tools', 'close.ts'));
});

it('watches a folder made after it started, and skips what it is told to', async () => {
  mkdirSync(join(dir, 'more'));
  await sees('more');
  writeFileSync(join(dir, 'more', 'new.ts'), 'export {};\n');
  await sees(join('more', 'new.ts'));
  writeFileSync(join(dir, 'node_modules', 'dep.js'), '');
  await new Promise((r) => setTimeout(r, 200));
  expect(seen.filter((f) => f.startsWith('node_modules/'))).toEqual([]);
});
