// Sessions of clients before 2026-07-28: a random id bound to its caller, held here, and in the store when instances share one.
import { randomBytes, toBase64Url } from '../../crypto';
import { openRecord, sealRecord } from '../../elicitation/sealed-record';
import type { JsonRpcId } from '../../protocol';
import { readEnv } from '../../runtime';
import type { ParleyServer } from '../../server/instance';
import type { ElicitationStore } from '../../stores';
import { watchChanges } from './changes';
import { EventStream } from './event-stream';

export interface SessionRecord {
  sessionId: string;
  createdAt: number;
  expiresAt: number;
  version: string;
  /** callerKey() of who opened it: the session serves only them. */
  caller: string;
  capabilities: Record<string, unknown>;
  clientInfo?: unknown;
}

export interface LiveSession {
  record: SessionRecord;
  /** The calls running here, by request id, so notifications/cancelled and DELETE can stop them. */
  calls: Map<JsonRpcId, AbortController>;
  /** This process's streams of the session, by stream id. */
  streams: Map<string, EventStream>;
  /** The GET stream, for messages that belong to no call. */
  standalone?: EventStream;
  logLevel?: string;
  /** The resource URIs the client subscribed to: their updates go out on the GET stream. */
  subscriptions?: Set<string>;
  /** Stops forwarding the server's changes to the session. */
  unwatch?: () => void;
}

const SESSION_TTL_MS = 24 * 60 * 60_000;
const ID = /^[A-Za-z0-9_-]{16,128}$/;

export class SessionTable {
  private readonly live = new Map<string, LiveSession>();
  constructor(private readonly server: ParleyServer) {}

  /**
   * The store sessions live in, so any instance serves any session: a shared store the config names (`redis`,
   * `elicitation.redis` or `sqlite`; not REDIS_URL alone), as the docs' table says.
   */
  private get shared(): ElicitationStore | undefined {
    const store = this.server.elicitationStore;
    return store?.sessionsDistributed ? store : undefined;
  }

  /** Session records are sealed with MCP_SESSION_SECRET, so instances that share it serve each other's sessions whatever their MCP_ELICITATION_SECRET. */
  private secret(store: ElicitationStore): string | undefined {
    return readEnv('MCP_SESSION_SECRET', this.server.env) ?? store.secret;
  }

  private key(store: ElicitationStore, id: string): string {
    return `${store.keyPrefix}session:${id}`;
  }

  async create(init: Pick<SessionRecord, 'version' | 'caller' | 'capabilities' | 'clientInfo'>): Promise<LiveSession> {
    this.prune();
    const now = Date.now();
    const record: SessionRecord = { sessionId: toBase64Url(randomBytes(24)), createdAt: now, expiresAt: now + SESSION_TTL_MS, ...init };
    const shared = this.shared;
    if (shared) await shared.backend.set(this.key(shared, record.sessionId), await sealRecord({ ...record }, this.secret(shared)), SESSION_TTL_MS);
    return this.adopt(record);
  }

  /** The session, if it exists, has not ended and belongs to this caller; otherwise undefined (the client gets 404). */
  async find(id: string, caller: string): Promise<LiveSession | undefined> {
    if (!ID.test(id)) return undefined;
    let session = this.live.get(id);
    const shared = this.shared;
    if (shared) {
      // Ask the store every time: another instance may have ended the session.
      const stored = await shared.backend.get(this.key(shared, id));
      if (!stored) {
        if (session) this.drop(session);
        return undefined;
      }
      if (!session) {
        const opened = await openRecord<SessionRecord>(stored, this.secret(shared));
        if (!opened.ok) return undefined;
        session = this.adopt(opened.record);
      }
    }
    if (!session || session.record.expiresAt <= Date.now()) return undefined;
    return session.record.caller === caller ? session : undefined;
  }

  /** Ends a session: its calls stop, its streams close, and every instance answers 404 from now on. */
  async end(session: LiveSession): Promise<void> {
    this.drop(session);
    const shared = this.shared;
    if (shared) await shared.backend.delete(this.key(shared, session.record.sessionId));
  }

  private adopt(record: SessionRecord): LiveSession {
    const session: LiveSession = { record, calls: new Map(), streams: new Map() };
    // Changes reach the client only on its GET stream; without one open, there is nowhere to send them.
    session.unwatch = watchChanges(this.server, session, (message) => session.standalone?.send(message));
    this.live.set(record.sessionId, session);
    return session;
  }

  private drop(session: LiveSession): void {
    this.live.delete(session.record.sessionId);
    session.unwatch?.();
    for (const call of session.calls.values()) call.abort();
    for (const stream of session.streams.values()) stream.detach();
  }

  private prune(): void {
    const now = Date.now();
    for (const session of this.live.values()) if (session.record.expiresAt <= now) this.drop(session);
  }
}

const tables = new WeakMap<ParleyServer, SessionTable>();

export function sessionsOf(server: ParleyServer): SessionTable {
  let table = tables.get(server);
  if (!table) tables.set(server, (table = new SessionTable(server)));
  return table;
}

/** Opens a new stream in the session; it forgets the stream once the stream is over and delivered. */
export function openStream(session: LiveSession): EventStream {
  const id = toBase64Url(randomBytes(9));
  const stream = new EventStream(id, () => session.streams.delete(id));
  session.streams.set(id, stream);
  return stream;
}
