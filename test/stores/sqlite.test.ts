// The store contract against SQLite in a temporary file, plus what only SQLite does: a file shared by processes.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/stores/sqlite';
import { describeStoreContract } from './contract';

const dir = mkdtempSync(join(tmpdir(), 'parley-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeStoreContract('sqlite', () => createSqliteStore({ path: join(dir, 'contract.sqlite') }));

describe('sqlite store', () => {
  it('creates its folder and a file only its user can read', async () => {
    const path = join(dir, 'nested', 'deeper', 'store.sqlite');
    const store = await createSqliteStore({ path });
    await store.close();
    expect(statSync(path).mode & 0o077).toBe(0);
  });

  it('shares values with another process on the same file: what one takes is gone for the other', async () => {
    const path = join(dir, 'shared.sqlite');
    const store = await createSqliteStore({ path });
    try {
      await store.set('k', 'from this process', 60_000);
      // Another Node process opens the same file with better-sqlite3 and takes the value.
      const script = `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(path)});
        const row = db.prepare('DELETE FROM parley_store WHERE key = ? RETURNING value').get('k'); console.log(row ? row.value : '');`;
      expect(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim()).toBe('from this process');
      expect(await store.take('k')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('take across processes: of three processes racing for the same keys, exactly one gets each', async () => {
    const path = join(dir, 'race.sqlite');
    const store = await createSqliteStore({ path });
    const keys = Array.from({ length: 1500 }, (_, i) => `race:${i}`);
    for (const key of keys) await store.set(key, key, 60_000);
    await store.close();
    // Each racer opens the store, says "ready", and starts taking only when told "go", so their takes overlap.
    const script = `(async () => {
      const { createSqliteStore } = await import(${JSON.stringify(resolve('src/stores/sqlite.ts'))});
      const store = await createSqliteStore({ path: ${JSON.stringify(path)} });
      console.log('ready');
      await new Promise((go) => process.stdin.once('data', go));
      const got = [];
      for (const key of ${JSON.stringify(keys)}) if ((await store.take(key)) === key) got.push(key);
      console.log(JSON.stringify(got));
      process.exit(0);
    })();`;
    const racers = [1, 2, 3].map(() => {
      const child = spawn(resolve('node_modules/.bin/tsx'), ['--eval', script], { stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      const ready = new Promise<void>((done) =>
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.startsWith('ready\n')) done();
        }),
      );
      const result = new Promise<string[]>((done, fail) =>
        child.once('exit', (code) =>
          code === 0 ? done(JSON.parse(out.slice('ready\n'.length)) as string[]) : fail(new Error(`racer exited ${code}`)),
        ),
      );
      return { child, ready, result };
    });
    await Promise.all(racers.map((r) => r.ready));
    for (const r of racers) r.child.stdin.end('go\n');
    const results = await Promise.all(racers.map((r) => r.result));
    expect(results.flat().sort()).toEqual([...keys].sort());
  });

  it('fails with a clear error when the path cannot be a database', async () => {
    await expect(createSqliteStore({ path: dir })).rejects.toThrow(`Could not open the SQLite store at ${dir}`);
  });
});
