// The records of older clients' sessions in a shared store, so any instance serves any session: sealed with
// MCP_SESSION_SECRET, kept until the session would idle out, renewed by whichever instance sees it active.
import { openRecord, sealRecord } from '../../elicitation';
import type { ElicitationStore } from '../../stores';

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

export class SessionRecords {
  constructor(
    /** The shared store (Redis, however it was found, or SQLite), as the docs' table says. */
    private readonly store: ElicitationStore,
    /** MCP_SESSION_SECRET, read when a record is sealed or opened. */
    private readonly sessionSecret: () => string | undefined,
    private readonly idleTtlMs: number,
  ) {}

  /**
   * Session records are sealed with MCP_SESSION_SECRET, so instances that share it serve each other's sessions whatever
   * their MCP_ELICITATION_SECRET. A method, not a getter: inspecting the server must not call it.
   */
  private secret(): string | undefined {
    return this.sessionSecret() ?? this.store.secret;
  }

  private key(id: string): string {
    return `${this.store.keyPrefix}session:${id}`;
  }

  /** A stored record lives until the session would idle out, and never past its end. */
  private ttl(record: SessionRecord, now: number): number {
    return Math.max(1, Math.min(this.idleTtlMs, record.expiresAt - now));
  }

  /** Stores a new record; resolves with it sealed, as renew() takes it. */
  async save(record: SessionRecord, now: number): Promise<string> {
    const sealed = await sealRecord({ ...record }, this.secret());
    await this.store.backend.set(this.key(record.sessionId), sealed, this.ttl(record, now));
    return sealed;
  }

  /** The record as stored (sealed), or undefined once the store no longer holds it. */
  read(id: string): Promise<string | undefined> {
    return this.store.backend.get(this.key(id));
  }

  /** A stored record opened, or undefined when it can't be (another secret, tampered with). */
  async open(sealed: string): Promise<SessionRecord | undefined> {
    const opened = await openRecord<SessionRecord>(sealed, this.secret());
    return opened.ok ? opened.record : undefined;
  }

  /** Renews the record's TTL: the session was active now. */
  renew(record: SessionRecord, sealed: string, now: number): Promise<void> {
    return this.store.backend.set(this.key(record.sessionId), sealed, this.ttl(record, now));
  }

  /** Forgets the record: every instance answers 404 for the session from now on. */
  remove(id: string): Promise<void> {
    return this.store.backend.delete(this.key(id));
  }
}
