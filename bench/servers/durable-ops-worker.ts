// bench/durable-ops.ts's driver: one request runs N store operations on Durable Objects, each as the Worker's store
// makes it (a stub per call), so the workerd process's CPU over the request is N operations' cost. Three classes:
// ParleyStore as the store ships it, RpcStore (the same SQLite statements behind RPC methods, for the A/B of
// stub.fetch() against RPC) and BareObject (never touches its storage: what a new object costs before SQL).
import { DurableObject } from 'cloudflare:workers';
import { ParleyStore } from '../../src/stores/durable-object';

export { ParleyStore };

interface Stub {
  fetch(input: string, init?: RequestInit): Promise<Response>;
  get(): Promise<string | undefined>;
  set(value: string): Promise<void>;
  wipe(): Promise<void>;
  clear(): Promise<void>;
}
interface Namespace {
  idFromName(name: string): unknown;
  get(id: unknown): Stub;
}
interface Env {
  FETCH_STORE: Namespace;
  RPC_STORE: Namespace;
  BARE: Namespace;
}
interface Sql {
  exec(query: string, ...bindings: unknown[]): { toArray(): Record<string, unknown>[] };
}
interface State {
  storage: { sql: Sql; transactionSync<T>(fn: () => T): T; deleteAlarm(): Promise<void>; deleteAll(): Promise<void> };
}

/** The same table and statements as ParleyStore's get and set (no TTL), behind RPC methods. */
export class RpcStore extends DurableObject {
  readonly #state: State;
  constructor(ctx: unknown, env: unknown) {
    super(ctx, env);
    this.#state = ctx as State;
    this.#state.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'entry'").toArray();
  }
  async get(): Promise<string | undefined> {
    if (this.#state.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'entry'").toArray().length === 0) return undefined;
    const row = this.#state.storage.sql.exec('SELECT value, expires_at FROM entry LIMIT 1').toArray()[0];
    return typeof row?.value === 'string' ? row.value : undefined;
  }
  async set(value: string): Promise<void> {
    const { sql } = this.#state.storage;
    this.#state.storage.transactionSync(() => {
      sql.exec('CREATE TABLE IF NOT EXISTS entry (value TEXT NOT NULL, expires_at INTEGER)');
      sql.exec('DELETE FROM entry');
      sql.exec('INSERT INTO entry (value, expires_at) VALUES (?, ?)', value, null);
    });
    await this.#state.storage.deleteAlarm();
  }
  /** ParleyStore's delete: the alarm and the whole storage go. */
  async wipe(): Promise<void> {
    await this.#state.storage.deleteAlarm();
    await this.#state.storage.deleteAll();
  }
  /** A delete that keeps the (empty) table: the A/B for deleteAll's cost. */
  async clear(): Promise<void> {
    this.#state.storage.sql.exec('DELETE FROM entry');
    await this.#state.storage.deleteAlarm();
  }
}

/** An object that never touches its storage: what a new object costs without its SQLite database. */
export class BareObject extends DurableObject {
  async get(): Promise<undefined> {
    return undefined;
  }
}

const ORIGIN = 'https://parley-store.invalid';
const VALUE = 'v'.repeat(200);

/**
 * One operation, by mode `<class>-<what>`: fetch (ParleyStore through stub.fetch), rpc (RpcStore) or bare (BareObject);
 * get and set on one object that exists, new (a set) and getnew (a get) on an object never used before, stub (no call
 * at all), cycle (a set, then the delete that wipes the object's storage with deleteAll), newwipe (a cycle on a new
 * object), clear (a set, then a delete that keeps the empty table).
 */
const operation = (env: Env, mode: string, run: string, i: number): Promise<unknown> => {
  const [how, what] = mode.split('-') as [string, string];
  const namespace = how === 'rpc' ? env.RPC_STORE : how === 'bare' ? env.BARE : env.FETCH_STORE;
  const fresh = what === 'new' || what === 'getnew' || what === 'newwipe';
  const name = fresh ? `k:${run}:${i}` : what === 'get' || what === 'set' ? 'k:existing' : `k:${what}`;
  const stub = namespace.get(namespace.idFromName(name));
  const reads = what === 'get' || what === 'getnew';
  if (what === 'stub') return Promise.resolve(stub);
  if (how !== 'fetch') {
    if (what === 'cycle' || what === 'newwipe') return stub.set(VALUE).then(() => stub.wipe());
    if (what === 'clear') return stub.set(VALUE).then(() => stub.clear());
    return reads ? stub.get() : stub.set(VALUE);
  }
  if (reads) return stub.fetch(`${ORIGIN}/get`).then((r) => r.text());
  const set = stub.fetch(`${ORIGIN}/set`, { method: 'POST', body: VALUE }).then((r) => r.arrayBuffer());
  return what === 'cycle' ? set.then(() => stub.fetch(`${ORIGIN}/delete`, { method: 'POST' })) : set;
};

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const mode = url.searchParams.get('mode') ?? '';
    const n = Number(url.searchParams.get('n') ?? '1');
    const parallel = Number(url.searchParams.get('parallel') ?? '1');
    const run = url.searchParams.get('run') ?? '';
    if (!/^(fetch|rpc|bare)-(get|set|new|getnew|stub|cycle|clear|newwipe)$/.test(mode))
      return new Response('unknown mode', { status: 400 });
    let next = 0;
    const lane = async () => {
      while (next < n) await operation(env, mode, run, next++);
    };
    await Promise.all(Array.from({ length: parallel }, lane));
    return new Response(String(n));
  },
};
