// The store contract against SQLite in a temporary file, plus what only SQLite does: a file shared by processes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('fails with a clear error when the path cannot be a database', async () => {
    await expect(createSqliteStore({ path: dir })).rejects.toThrow(`Could not open the SQLite store at ${dir}`);
  });
});
