// For a test file of store backends: a real redis-server and a temporary folder for SQLite files, started before its
// tests, and every backend it opened closed after them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { StoreBackend } from '../../src/stores';
import { startRedis, type RunningRedis } from './redis';

export function storeFixture(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const opened: StoreBackend[] = [];
  let redis: RunningRedis | undefined;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(opened.map((s) => s.close().catch(() => {})));
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    /** A path in the folder. */
    file: (name: string) => join(dir, name),
    redis: () => redis!,
    /** Closes the backend after the file's tests. */
    keep: <T extends StoreBackend>(backend: T) => (opened.push(backend), backend),
  };
}
