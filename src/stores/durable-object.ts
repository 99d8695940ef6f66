// The Durable Object behind the Durable Objects store: the class a Worker exports and wrangler.toml binds. One object
// holds one key's value (its SQLite storage, an alarm for its TTL), which may be a sorted set, or one channel's
// subscribers (hibernatable sockets); durable-objects.ts, on the Worker's side, names which. The object never learns
// the key: it is the key. A sorted set of what is due also wakes the Worker when its earliest member comes due
// (durable-object-wake.ts), by the same one alarm.
import { isObject } from '../protocol';
import { WAKE, backoffMs, readWake, selfOf, type SelfFetcher } from './durable-object-wake';

/** The parts of a cursor from `ctx.storage.sql.exec` this reads. */
interface SqlCursor {
  toArray(): Record<string, unknown>[];
}

/** A socket as the hibernation API hands it to the object. */
interface ObjectSocket {
  send(message: string): void;
  close(code?: number, reason?: string): void;
}

/** The parts of workerd's DurableObjectState this uses, declared here so Parley needs no Workers types. */
interface DurableObjectStateLike {
  storage: {
    sql: { exec(query: string, ...bindings: unknown[]): SqlCursor };
    transactionSync<T>(fn: () => T): T;
    setAlarm(scheduledTime: number): Promise<void>;
    deleteAlarm(): Promise<void>;
    deleteAll(): Promise<void>;
  };
  acceptWebSocket(socket: ObjectSocket): void;
  getWebSockets(): ObjectSocket[];
}

/** What a request to the object asks, by path; durable-objects.ts sends them. */
export const OBJECT_ORIGIN = 'https://parley-store.invalid';
/** The request header that carries a value's TTL in ms. */
export const TTL_HEADER = 'x-parley-ttl-ms';

const ENTRY = 'CREATE TABLE IF NOT EXISTS entry (value TEXT NOT NULL, expires_at INTEGER)';
const HAS_TABLE = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?";

interface Row {
  value: string;
  expiresAt: number | undefined;
}

/**
 * Parley's store on Durable Objects: export it from the Worker's entry, bind it in wrangler.toml and declare it with
 * `new_sqlite_classes` (it keeps values in SQLite storage), then call `enableDurableObjects()` (docs/stores-and-scaling.md).
 * @example export { ParleyStore } from 'parley-mcp/cloudflare';
 */
export class ParleyStore {
  // Read by a subclass only (tests look at what is left in storage); the constructor is all workerd calls.
  protected readonly ctx: DurableObjectStateLike;
  /** Whether the entry table exists: deleteAll() drops it, the next set makes it again. */
  #hasTable: boolean;
  /** Whether the wake table exists (a due set's, with the self binding): likewise. */
  #hasWake: boolean;
  /** The Worker itself (the PARLEY_SELF service binding), which a due set's alarm wakes; none without the binding. */
  readonly #self: SelfFetcher | undefined;

  constructor(ctx: DurableObjectStateLike, env?: unknown) {
    this.ctx = ctx;
    this.#hasTable = ctx.storage.sql.exec(HAS_TABLE, 'entry').toArray().length > 0;
    this.#hasWake = ctx.storage.sql.exec(HAS_TABLE, 'wake').toArray().length > 0;
    this.#self = selfOf(env);
  }

  async fetch(request: Request): Promise<Response> {
    switch (new URL(request.url).pathname) {
      case '/get':
        return found(await this.#live());
      case '/take':
        return found(await this.#take());
      case '/set':
        // A plain value in place of a sorted set: nothing is due any more.
        if (this.#hasWake) this.ctx.storage.sql.exec('DROP TABLE wake');
        this.#hasWake = false;
        await this.#set(await request.text(), request.headers.get(TTL_HEADER));
        return new Response(null, { status: 204 });
      case '/delete':
        await this.#forget();
        return new Response(null, { status: 204 });
      case '/zadd':
        await this.#addMember(await request.json());
        return new Response(null, { status: 204 });
      case '/zrange': {
        const [maxScore, limit] = (await request.json()) as [number, number];
        return Response.json(this.#members().flatMap(([member, score], i) => (score <= maxScore && i < limit ? [member] : [])));
      }
      case '/zrem':
        await this.#removeMember(await request.text());
        return new Response(null, { status: 204 });
      case '/publish':
        return new Response(String(this.#publish(await request.text())));
      case '/subscribe':
        return this.#subscribe(request);
    }
    return new Response('not a store operation', { status: 404 });
  }

  /**
   * The one alarm, for the earlier of two deadlines: the TTL's (the value goes, storage and all) and, for a sorted set of
   * what is due, its earliest member's (the Worker is woken to send it). At least once: a run with nothing due, or for
   * an object that holds nothing any more, does nothing and arms nothing.
   */
  async alarm(): Promise<void> {
    const row = this.#read();
    if (!row) return;
    if (row.expiresAt !== undefined && row.expiresAt <= Date.now()) return this.#forget();
    await this.#wakeWorker();
    if (this.#hasTable) await this.#arm();
  }

  /** A subscriber's socket closed: complete the close handshake (the socket may already be closed). */
  webSocketClose(socket: ObjectSocket, code: number, reason: string): void {
    try {
      socket.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // already closed
    }
  }

  webSocketError(socket: ObjectSocket): void {
    this.webSocketClose(socket, 1011, 'error');
  }

  /** The value unless its deadline passed: an expired value is never read, even before its alarm ran. */
  async #live(): Promise<string | undefined> {
    const row = this.#read();
    if (row?.expiresAt !== undefined && row.expiresAt <= Date.now()) {
      await this.#forget();
      return undefined;
    }
    return row?.value;
  }

  /** Read and delete in one synchronous transaction: the object runs one event at a time, so one caller gets it. */
  async #take(): Promise<string | undefined> {
    const row = this.ctx.storage.transactionSync(() => {
      const read = this.#read();
      if (read) this.ctx.storage.sql.exec('DELETE FROM entry');
      return read;
    });
    if (!row) return undefined;
    await this.#forget();
    return row.expiresAt !== undefined && row.expiresAt <= Date.now() ? undefined : row.value;
  }

  async #set(value: string, ttl: string | null): Promise<void> {
    const ttlMs = ttl === null ? undefined : Number(ttl);
    if (ttlMs !== undefined && !(ttlMs > 0)) return this.#forget(); // a TTL of zero or less has already run out
    const expiresAt = ttlMs === undefined ? null : Date.now() + Math.ceil(ttlMs);
    const { sql } = this.ctx.storage;
    this.ctx.storage.transactionSync(() => {
      sql.exec(ENTRY);
      sql.exec('DELETE FROM entry');
      sql.exec('INSERT INTO entry (value, expires_at) VALUES (?, ?)', value, expiresAt);
    });
    this.#hasTable = true;
    await this.#arm();
  }

  /** The alarm at the earlier deadline: the TTL's, or when the due set's earliest member wakes the Worker; else none. */
  async #arm(): Promise<void> {
    const at = [this.#read()?.expiresAt, this.#wakeAt()].filter((t) => t !== undefined);
    await (at.length === 0 ? this.ctx.storage.deleteAlarm() : this.ctx.storage.setAlarm(Math.min(...at)));
  }

  /** Where and when to wake the Worker: a due set's, with the self binding; undefined otherwise. */
  #wake() {
    return this.#self && this.#hasTable && this.#hasWake ? readWake(this.ctx.storage.sql) : undefined;
  }

  /** When the Worker is next woken: the earliest member's score, not before a failed wake's backoff ends. */
  #wakeAt(): number | undefined {
    const wake = this.#wake();
    const first = wake && this.#members()[0];
    return first ? Math.max(first[1], wake.notBefore) : undefined;
  }

  /**
   * Wakes the Worker for what is due: GET /_frontmcp/deadlines on the origin it was reached at, through its PARLEY_SELF
   * binding; it sends each due nudge and takes its member out of this set. A wake that fails, or sends nothing while
   * members stay due, is tried again after a backoff that doubles (stored, so a restart of the object keeps it).
   */
  async #wakeWorker(): Promise<void> {
    const wake = this.#wake();
    const now = Date.now();
    if (!wake || wake.notBefore > now) return;
    const due = this.#dueCount(now);
    if (due === 0) return;
    let ok = false;
    try {
      const response = await this.#self!.fetch(wake.url);
      await response.body?.cancel();
      ok = response.ok;
    } catch {
      // not reached: tried again after the backoff
    }
    // The call let other requests in (the sweep's own removals among them): read again. The set may be gone.
    const after = this.#wake();
    if (!after) return;
    const moved = ok && this.#dueCount(now) < due;
    const tries = moved ? 0 : after.tries + 1;
    this.ctx.storage.sql.exec('UPDATE wake SET tries = ?, not_before = ?', tries, moved ? 0 : Date.now() + backoffMs(tries));
  }

  #dueCount(now: number): number {
    return this.#members().filter(([, score]) => score <= now).length;
  }

  /**
   * A sorted set is the key's value: [member, score] pairs, lowest score first. Each operation reads and writes it with
   * no await between, and the object runs one event at a time: none is lost.
   */
  #members(): [string, number][] {
    const row = this.#read();
    return row && !(row.expiresAt !== undefined && row.expiresAt <= Date.now()) ? JSON.parse(row.value) : [];
  }

  /**
   * Adds or moves a member; past `max` the lowest-scored go; the set lives at least `ttlMs` more, never less. With
   * `wake` (a URL of the Worker's) and the self binding, the set's alarm wakes the Worker there when a member comes due.
   */
  #addMember([member, score, ttlMs, max, wake]: [string, number, number, number, string?]): Promise<void> {
    const members = this.#members().filter(([m]) => m !== member);
    members.push([member, score]);
    members.sort((x, y) => x[1] - y[1]);
    const until = Math.max(this.#read()?.expiresAt ?? 0, Date.now() + ttlMs);
    if (this.#self && typeof wake === 'string') {
      const { sql } = this.ctx.storage;
      sql.exec(WAKE);
      this.#hasWake = true;
      // The latest URL, the backoff kept: a new member does not cut a failing Worker's wait short.
      if (readWake(sql)) sql.exec('UPDATE wake SET url = ?', wake);
      else sql.exec('INSERT INTO wake (url, tries, not_before) VALUES (?, 0, 0)', wake);
    }
    return this.#set(JSON.stringify(members.slice(-max)), String(until - Date.now()));
  }

  #removeMember(member: string): Promise<void> {
    const members = this.#members().filter(([m]) => m !== member);
    const expiresAt = this.#read()?.expiresAt;
    return members.length === 0
      ? this.#forget()
      : this.#set(JSON.stringify(members), expiresAt === undefined ? null : String(expiresAt - Date.now()));
  }

  #read(): Row | undefined {
    if (!this.#hasTable) return undefined;
    const row = this.ctx.storage.sql.exec('SELECT value, expires_at FROM entry LIMIT 1').toArray()[0];
    if (!isObject(row) || typeof row.value !== 'string') return undefined;
    return { value: row.value, expiresAt: typeof row.expires_at === 'number' ? row.expires_at : undefined };
  }

  /** Nothing left behind: deleteAll() drops the table and what an empty object would still be billed for. */
  async #forget(): Promise<void> {
    this.#hasTable = false;
    this.#hasWake = false;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  /** Sends the message on every subscriber's socket; answers how many took it. */
  #publish(message: string): number {
    let reached = 0;
    for (const socket of this.ctx.getWebSockets()) {
      try {
        socket.send(message);
        reached++;
      } catch {
        // closing: not a subscriber any more
      }
    }
    return reached;
  }

  /** A subscriber: its socket is accepted for hibernation, so an idle channel costs no duration while it waits. */
  #subscribe(request: Request): Response {
    if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return new Response('expected a WebSocket upgrade', { status: 426 });
    const Pair = (globalThis as unknown as { WebSocketPair: new () => [ObjectSocket, ObjectSocket] }).WebSocketPair;
    const [client, server] = new Pair();
    this.ctx.acceptWebSocket(server);
    return new Response(null, { status: 101, webSocket: client } as ResponseInit);
  }
}

/** A read's answer: 200 with the value (the empty string included), or 204 when there is none. */
const found = (value: string | undefined): Response =>
  value === undefined
    ? new Response(null, { status: 204 })
    : new Response(value, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
