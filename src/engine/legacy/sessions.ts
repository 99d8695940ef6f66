// Sessions of clients before 2026-07-28: a random id bound to its caller, held here, and in the store when instances share one.
import { randomBytes, toBase64Url } from '../../crypto';
import { LimitError, type JsonRpcId, type McpWireError, type Responder } from '../../protocol';
import type { PendingQuestions } from './pending';
import { sessionEndedError } from './waiters';
import type { Logger } from '../../runtime';
import type { ServerSettings } from '../../model';
import type { ElicitationStore } from '../../stores';
import { SessionRecords, type SessionRecord } from './session-records';

export interface LiveSession {
  record: SessionRecord;
  /** The calls running here, by request id, so notifications/cancelled and DELETE can stop them. */
  calls: Map<JsonRpcId, AbortController>;
  /** This process's streams of the session, by stream id (HTTP's; stdio has none). */
  streams?: Map<string, SessionStream>;
  /** The GET stream, for messages that belong to no call. */
  standalone?: SessionStream;
  logLevel?: string;
  /** The resource URIs the client subscribed to: their updates go out on the GET stream. */
  subscriptions?: Set<string>;
  /** Stops forwarding the server's changes to the session. */
  unwatch?: () => void;
  /** Stops following its tasks for notifications/tasks/status (set while its GET stream is held here). */
  unwatchTasks?: () => void;
}

/** A stream of a session's messages, resumable: the transport makes it (http/legacy's EventStream). */
export interface SessionStream {
  send(message: unknown): void;
  /** No more messages: it closes once the client has them all. */
  end(): void;
  /** Closes the client's connection without ending the stream. */
  detach(): void;
  readonly isEnded: boolean;
  readonly isConnected: boolean;
  /** A response carrying the messages after `after` (all, with a priming event, when absent), then the live ones. */
  connect(respond: Responder, after?: number): Response;
}

const ID = /^[A-Za-z0-9_-]{16,128}$/;

/** What the table knows of a live session besides the session itself. */
interface Entry {
  session: LiveSession;
  /** The last request, stream event or running call seen: the session ends idleTtlMs after it. */
  lastActiveAt: number;
  /** The sealed record as stored, and when its TTL was last renewed there (shared stores only). */
  sealed?: string;
  storedAt: number;
}

/**
 * The sessions this process holds, capped per caller and in total, and ended when idle. Both maps are kept in order
 * of last activity (a touch moves an entry to the end), so a sweep reads only the entries at the front that expired.
 */
export class SessionTable {
  private readonly live = new Map<string, Entry>();
  private readonly byCaller = new Map<string, Map<string, Entry>>();
  private warnedAt = -Infinity;
  /** Calls running here, over every session, and who waits for the last of them to end (a shutdown's grace). */
  private running = 0;
  private idlers: (() => void)[] = [];
  /** Where records go when instances share a store (sessionsDistributed), so any instance serves any session. */
  private readonly shared?: SessionRecords;
  constructor(private readonly parts: SessionParts) {
    const { store, sessionSecret, limits } = parts;
    if (store?.sessionsDistributed) this.shared = new SessionRecords(store, sessionSecret, limits.idleTtlMs);
  }

  private get limits(): SessionLimits {
    return this.parts.limits;
  }

  /** How many sessions this process holds, and how many of them are the caller's. */
  count(caller?: string): number {
    return caller === undefined ? this.live.size : (this.byCaller.get(caller)?.size ?? 0);
  }

  /** Opens a session for the caller, or throws a LimitError (429 for the caller's cap, 503 when the process is full). */
  async create(init: Pick<SessionRecord, 'version' | 'caller' | 'capabilities' | 'clientInfo'>): Promise<LiveSession> {
    const now = Date.now();
    this.sweep(now);
    const record: SessionRecord = { sessionId: toBase64Url(randomBytes(24)), createdAt: now, expiresAt: now + this.limits.ttlMs, ...init };
    // Admitted and counted before the first await, so concurrent initializes cannot pass the caps together.
    const entry = this.adopt(record, now);
    const shared = this.shared;
    if (shared) {
      try {
        entry.sealed = await shared.save(record, now);
      } catch (error) {
        this.drop(entry);
        throw error;
      }
    }
    return entry.session;
  }

  /**
   * The session, if it exists, has not ended and belongs to this caller; otherwise undefined (the client gets 404).
   * Finding it counts as activity. A session of another instance is held here too, within this process's caps.
   */
  async find(id: string, caller: string): Promise<LiveSession | undefined> {
    if (!ID.test(id)) return undefined;
    const now = Date.now();
    this.sweep(now);
    let entry = this.live.get(id);
    const shared = this.shared;
    if (shared) {
      // Ask the store every time: another instance may have ended the session.
      const stored = await shared.read(id);
      if (!stored) {
        if (entry)
          this.drop(entry, 'the store no longer holds it (it was ended on another instance, it expired, or the store lost its data)');
        return undefined;
      }
      entry ??= this.live.get(id); // adopted by a request that was waiting on the store with this one
      if (!entry) {
        const record = await shared.open(stored);
        if (record?.caller !== caller) return undefined;
        entry = this.live.get(id) ?? this.adopt(record, now);
        entry.sealed = stored;
        entry.storedAt = -Infinity; // when it was stored is not known here: renew it on this request
      }
    }
    if (!entry || entry.session.record.caller !== caller) return undefined;
    // With a shared store, the stored record's TTL is the idle clock: every instance renews it, so it decides.
    if (entry.session.record.expiresAt <= now || (!shared && entry.lastActiveAt + this.limits.idleTtlMs <= now)) {
      this.drop(entry, 'it expired (http.sessions)');
      return undefined;
    }
    await this.touch(entry, now);
    return entry.session;
  }

  /** Ends a session: its calls stop, its streams close, and every instance answers 404 from now on. */
  async end(session: LiveSession): Promise<void> {
    const entry = this.live.get(session.record.sessionId);
    const why = 'the client ended the session (DELETE)';
    if (entry?.session === session) this.drop(entry, why);
    const shared = this.shared;
    if (!shared) return;
    await shared.remove(session.record.sessionId);
    // Calls of the session waiting for an answer on other instances end now too, with the same reason.
    await this.parts.pending.endSession(session.record.sessionId, why);
  }

  /** Counts a call of the session in (notifications/cancelled and DELETE find it) until the returned function is called. */
  track(session: LiveSession, id: JsonRpcId, controller: AbortController): () => void {
    session.calls.set(id, controller);
    this.running++;
    let over = false;
    return () => {
      if (over) return;
      over = true;
      if (session.calls.get(id) === controller) session.calls.delete(id);
      if (--this.running === 0) for (const idle of this.idlers.splice(0)) idle();
    };
  }

  /** Resolves once no call runs here (at once when none does). */
  idle(): Promise<void> {
    return this.running === 0 ? Promise.resolve() : new Promise((resolve) => this.idlers.push(resolve));
  }

  /** Ends every session this process holds, their running calls with `reason` (the server is shutting down). */
  endAll(reason: McpWireError): void {
    for (const entry of [...this.live.values()]) this.drop(entry, reason);
  }

  /** Each event or keepalive a client is sent counts as the session's activity (its stream says so). */
  active(session: LiveSession): void {
    const entry = this.live.get(session.record.sessionId);
    if (entry?.session === session)
      void this.touch(entry, Date.now())?.catch((error: unknown) =>
        this.parts.logger.warn('Could not renew a session in the store', error),
      );
  }

  /** Counts the session in, or throws when the caller or the process is at its cap. */
  private adopt(record: SessionRecord, now: number): Entry {
    const { maxPerCaller, maxTotal } = this.limits;
    const mine = this.byCaller.get(record.caller);
    if (mine && mine.size >= maxPerCaller) {
      const who = record.caller === 'anonymous' ? 'anonymous callers (without a token they count as one caller)' : 'this caller';
      const wait = this.retryAfter(mine, now);
      throw new LimitError(
        `Too many sessions for ${who}: at most ${maxPerCaller} (http.sessions.maxPerCaller). End a session you no longer use (DELETE with its Mcp-Session-Id), or retry after ${wait} s`,
        wait,
        'caller',
        { limit: 'http.sessions.maxPerCaller', max: maxPerCaller },
      );
    }
    if (this.live.size >= maxTotal) {
      const wait = this.retryAfter(this.live, now);
      // Once a minute at most: a flood of refusals must not become a flood of log lines.
      if (now - this.warnedAt >= 60_000) {
        this.warnedAt = now;
        this.parts.logger.warn(`Refusing sessions: the process holds ${maxTotal} (http.sessions.maxTotal)`);
      }
      throw new LimitError(
        `The server holds as many sessions as it allows (${maxTotal}, http.sessions.maxTotal): retry after ${wait} s`,
        wait,
        'server',
        {
          limit: 'http.sessions.maxTotal',
          max: maxTotal,
        },
      );
    }
    const session: LiveSession = { record, calls: new Map() };
    const entry: Entry = { session, lastActiveAt: now, storedAt: now };
    // Changes reach the client only on its GET stream; without one open, there is nowhere to send them.
    session.unwatch = this.parts.watch(session, (message) => session.standalone?.send(message));
    this.live.set(record.sessionId, entry);
    if (mine) mine.set(record.sessionId, entry);
    else this.byCaller.set(record.caller, new Map([[record.sessionId, entry]]));
    return entry;
  }

  /** Forgets the session here: its calls end with a JSON-RPC error naming why, and its streams close once that is sent. */
  private drop(entry: Entry, why: string | McpWireError = 'it ended'): void {
    const { session } = entry;
    const id = session.record.sessionId;
    if (this.live.get(id) !== entry) return;
    this.live.delete(id);
    const mine = this.byCaller.get(session.record.caller);
    mine?.delete(id);
    if (mine?.size === 0) this.byCaller.delete(session.record.caller);
    session.unwatch?.();
    session.unwatchTasks?.();
    const reason = typeof why === 'string' ? sessionEndedError(why) : why;
    for (const call of session.calls.values()) call.abort(reason);
    // Ended, not cut: a call's stream closes once its last event (that error) reached the client.
    for (const stream of session.streams?.values() ?? []) stream.end();
  }

  /**
   * Marks the entry active now: two Map moves, cheap enough for every request. With a shared store the stored record's
   * TTL is renewed too, at most once a tenth of idleTtlMs, so the store forgets an idle session on every instance.
   */
  private touch(entry: Entry, now: number): Promise<void> | undefined {
    entry.lastActiveAt = now;
    const { sessionId, caller } = entry.session.record;
    this.live.delete(sessionId);
    this.live.set(sessionId, entry);
    const mine = this.byCaller.get(caller);
    mine?.delete(sessionId);
    mine?.set(sessionId, entry);
    const shared = this.shared;
    if (!shared || entry.sealed === undefined || now - entry.storedAt < this.limits.idleTtlMs / 10) return undefined;
    entry.storedAt = now;
    return shared.renew(entry.session.record, entry.sealed, now);
  }

  /**
   * Ends the sessions idle for idleTtlMs, reading from the least recently active and stopping at the first that is not:
   * nothing to do costs one look. A session with a running call or a connected stream is active, and moves to the back.
   */
  private sweep(now: number): void {
    const idle = this.limits.idleTtlMs;
    for (const entry of this.live.values()) {
      if (entry.lastActiveAt + idle > now) return;
      if (entry.session.record.expiresAt > now && isBusy(entry.session)) void this.touch(entry, now)?.catch(() => {});
      else this.drop(entry);
    }
  }

  /** Seconds until the least recently active of these sessions would idle out: when a slot may free, at the soonest. */
  private retryAfter(entries: Map<string, Entry>, now: number): number {
    const first = entries.values().next().value;
    const at = first ? Math.min(first.lastActiveAt + this.limits.idleTtlMs, first.session.record.expiresAt) : now;
    return Math.max(1, Math.ceil((at - now) / 1000));
  }
}

type SessionLimits = ServerSettings['http']['sessions'];

/** What the table is built from: app/ gives them when it builds the server. */
export interface SessionParts {
  limits: SessionLimits;
  /** The elicitation store: session records go in it when it is shared (sessionsDistributed). */
  store?: ElicitationStore;
  /** MCP_SESSION_SECRET, read when a record is sealed or opened. */
  sessionSecret(): string | undefined;
  pending: PendingQuestions;
  logger: Logger;
  /** Sends the session the server's changes it may hear, until the returned function is called. */
  watch(session: LiveSession, send: (message: Record<string, unknown>) => void): () => void;
}

const isBusy = (session: LiveSession): boolean => {
  if (session.calls.size > 0) return true;
  for (const stream of session.streams?.values() ?? []) if (stream.isConnected) return true;
  return false;
};
