// SQLite (better-sqlite3): keys with expiry in one file that processes on this machine share; messages stay in-process.
import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { LocalChannels } from './local-channels';
import type { SqliteOptions } from './options';
import type { MessageHandler, StoreBackend } from './types';

const SCHEMA = `CREATE TABLE IF NOT EXISTS parley_store (
  key TEXT PRIMARY KEY NOT NULL,
  value TEXT NOT NULL,
  expires_at INTEGER
)`;
/** Expired rows are skipped when read and swept every this many writes: no timer keeps the process alive. */
const SWEEP_EVERY = 200;

export class SqliteStore implements StoreBackend {
  readonly type = 'sqlite';
  /** Messages reach subscribers of this store object only: a second process on the same file never hears them. */
  readonly supportsPubSub = false;
  /** The data is shared with every process that opens the same file. */
  readonly distributed = true;
  private readonly channels = new LocalChannels();
  private readonly db: Database.Database;
  private readonly statements;
  private readonly takeRow: (key: string, now: number) => string | undefined;
  private writes = 0;

  /** `busyTimeoutMs`: how long a write waits for another process's lock before it fails (elicitation.storeTimeoutMs). */
  constructor(path: string, busyTimeoutMs = 5_000) {
    if (path !== ':memory:') createPrivately(path);
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL'); // readers don't block the writer of another process
    // better-sqlite3 waits synchronously: no timer can end that wait, so SQLite's own bound is the store timeout.
    this.db.pragma(`busy_timeout = ${Math.floor(busyTimeoutMs)}`);
    this.db.exec(SCHEMA);
    this.statements = {
      get: this.db.prepare<[string, number], { value: string }>(
        'SELECT value FROM parley_store WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)',
      ),
      set: this.db.prepare<[string, string, number | null]>(
        'INSERT OR REPLACE INTO parley_store (key, value, expires_at) VALUES (?, ?, ?)',
      ),
      delete: this.db.prepare<[string]>('DELETE FROM parley_store WHERE key = ?'),
      sweep: this.db.prepare<[number]>('DELETE FROM parley_store WHERE expires_at IS NOT NULL AND expires_at <= ?'),
    };
    const { get, delete: remove } = this.statements;
    // IMMEDIATE takes the write lock before reading, so of several processes exactly one reads the row before it goes.
    this.takeRow = this.db.transaction((key: string, now: number) => {
      const row = get.get(key, now);
      if (row) remove.run(key);
      return row?.value;
    }).immediate;
  }

  async get(key: string): Promise<string | undefined> {
    return this.statements.get.get(key, Date.now())?.value;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    if (ttlMs !== undefined && ttlMs <= 0) return this.delete(key); // already expired
    this.statements.set.run(key, value, ttlMs === undefined ? null : Date.now() + Math.ceil(ttlMs));
    if (++this.writes % SWEEP_EVERY === 0) this.statements.sweep.run(Date.now());
  }

  async delete(key: string): Promise<void> {
    this.statements.delete.run(key);
  }

  async take(key: string): Promise<string | undefined> {
    return this.takeRow(key, Date.now());
  }

  async publish(channel: string, message: string): Promise<number> {
    return this.channels.publish(channel, message);
  }

  async subscribe(channel: string, onMessage: MessageHandler): Promise<() => Promise<void>> {
    return this.channels.subscribe(channel, onMessage);
  }

  async close(): Promise<void> {
    this.channels.clear();
    if (this.db.open) this.db.close();
  }
}

/** Makes the folder and an empty file readable by this user only, before SQLite opens it (unencrypted records may be inside). */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
}

/**
 * Opens (or creates) the SQLite store at `options.path`.
 * @example const store = await createSqliteStore({ path: './data/parley.sqlite' });
 */
export async function createSqliteStore(options: SqliteOptions, extra: { busyTimeoutMs?: number } = {}): Promise<SqliteStore> {
  try {
    return new SqliteStore(options.path, extra.busyTimeoutMs);
  } catch (error) {
    throw new Error(`Could not open the SQLite store at ${options.path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
