// Questions waiting for clients before 2026-07-28: in the elicitation store under the session, answered by publish/subscribe.
import type { Logger } from '../runtime';
import { memoryStore, type ElicitationStore } from '../stores';
import { PublicMcpError } from '../server/errors';
import type { ParleyServer } from '../server/instance';
import { openRecord, sealRecord } from './sealed-record';
import type { ElicitParams, RawAnswer } from './types';

export const DECRYPT_FAILED = '[EncryptedElicitationStore] Failed to decrypt pending record';

export interface OpenQuestion {
  answer: Promise<RawAnswer>;
  /** Stops listening and removes the stored question; call once the wait is over, however it ended. */
  close(): Promise<void>;
}

interface Waiter {
  sessionId: string;
  deliver(answer: RawAnswer): void;
}

/** Who asks: the session, and the caller (callerKey) who owns it. */
export interface Asking {
  sessionId: string;
  caller: string;
}

/** elicitation.pending: how many questions may wait at once in this process, per session and per caller. */
export interface PendingLimits {
  maxPerSession: number;
  maxPerCaller: number;
}

const NO_LIMITS: PendingLimits = { maxPerSession: Infinity, maxPerCaller: Infinity };

export class PendingQuestions {
  // Questions asked by this process: an answer that reaches the instance that asked needs no store round trip.
  private readonly waiters = new Map<string, Waiter>();
  // How many questions wait now, by session and by caller; an entry goes when its count is back to 0.
  private readonly bySession = new Map<string, number>();
  private readonly byCaller = new Map<string, number>();
  constructor(
    private readonly store: ElicitationStore,
    private readonly logger: Logger,
    /** Set when no store can keep questions here (the stateless edge opt-in): every question is refused with it. */
    readonly unavailable?: string,
    private readonly limits: PendingLimits = NO_LIMITS,
  ) {}

  /** How many questions wait now in this process for the session. */
  waiting(sessionId: string): number {
    return this.bySession.get(sessionId) ?? 0;
  }

  /** Counts a question in, or throws a tool error (LIMIT_REACHED) when its session or caller already has its fill. */
  private reserve({ sessionId, caller }: Asking): () => void {
    const { maxPerSession, maxPerCaller } = this.limits;
    const inSession = this.bySession.get(sessionId) ?? 0;
    const ofCaller = this.byCaller.get(caller) ?? 0;
    if (inSession >= maxPerSession)
      throw new PublicMcpError(`Too many questions waiting in this session: at most ${maxPerSession} (elicitation.pending.maxPerSession). Answer or cancel one, then call again`, 'LIMIT_REACHED');
    if (ofCaller >= maxPerCaller)
      throw new PublicMcpError(`Too many questions waiting for this caller: at most ${maxPerCaller} (elicitation.pending.maxPerCaller). Answer or cancel one, then call again`, 'LIMIT_REACHED');
    this.bySession.set(sessionId, inSession + 1);
    this.byCaller.set(caller, ofCaller + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      decrement(this.bySession, sessionId);
      decrement(this.byCaller, caller);
    };
  }

  private key(kind: 'pending' | 'result', id: string): string {
    return `${this.store.keyPrefix}${kind}:${id}`;
  }

  /** Records the question (an elicitation, or a sampling or roots request) and starts listening for its answer. Call it before the question is sent. */
  async open(asking: Asking, elicitId: string, params: ElicitParams | Record<string, unknown>, ttlMs: number): Promise<OpenQuestion> {
    const { sessionId } = asking;
    // Counted before the first await, so questions asked together cannot pass the limits together.
    const release = this.reserve(asking);
    let deliver!: (answer: RawAnswer) => void;
    const answer = new Promise<RawAnswer>((resolve) => (deliver = resolve));
    this.waiters.set(elicitId, { sessionId, deliver });
    const { backend, secret } = this.store;
    const pendingKey = this.key('pending', sessionId);
    let unsubscribe: () => Promise<void>;
    try {
      unsubscribe = await backend.subscribe(this.key('result', elicitId), (message) => {
        void openRecord<{ answer: RawAnswer }>(message, secret).then((opened) => {
          if (opened.ok && opened.record.sessionId === sessionId && opened.record.elicitId === elicitId) deliver(opened.record.answer ?? {});
          else this.logger.warn(`Ignored a published answer for elicitation ${elicitId}: ${opened.ok ? 'it names another session' : opened.reason}`);
        });
      });
    } catch (error) {
      this.waiters.delete(elicitId);
      release();
      throw error;
    }
    try {
      const now = Date.now();
      await backend.set(pendingKey, await sealRecord({ sessionId, elicitId, createdAt: now, expiresAt: now + ttlMs, params: { ...params } }, secret), ttlMs);
    } catch (error) {
      this.waiters.delete(elicitId);
      release();
      await unsubscribe();
      throw error;
    }
    return {
      answer,
      close: async () => {
        this.waiters.delete(elicitId);
        release();
        await unsubscribe();
        // Another question of the session may have replaced this one; leave that one alone.
        const stored = await backend.get(pendingKey);
        if (stored && (JSON.parse(stored) as { elicitId?: string }).elicitId === elicitId) await backend.delete(pendingKey);
      },
    };
  }

  /**
   * An answer a client POSTed for its session: to the waiter in this process, else through the store to the instance
   * that asked. It resolves whether or not anyone was waiting, since the client gets 202 either way.
   */
  async deliver(sessionId: string, elicitId: string, answer: RawAnswer): Promise<boolean> {
    const local = this.waiters.get(elicitId);
    if (local) {
      if (local.sessionId !== sessionId) return false;
      local.deliver(answer);
      return true;
    }
    const { backend, secret } = this.store;
    const stored = await backend.get(this.key('pending', sessionId));
    if (!stored) return false;
    const opened = await openRecord<{ params: ElicitParams }>(stored, secret);
    if (!opened.ok) {
      if (opened.reason === 'undecryptable') this.logger.warn(DECRYPT_FAILED);
      return false;
    }
    if (opened.record.elicitId !== elicitId) return false;
    const message = await sealRecord({ sessionId, elicitId, createdAt: Date.now(), expiresAt: opened.record.expiresAt, answer }, secret);
    await backend.publish(this.key('result', elicitId), message);
    return true;
  }
}

const registry = new WeakMap<ParleyServer, PendingQuestions>();

export const STATELESS_EDGE_REFUSAL =
  "Clients before 2026-07-28 can't be asked here: this server runs on an edge runtime with elicitation.edge: 'stateless' and no distributed store. Use a client that speaks 2026-07-28, or give the server a Redis store.";

/**
 * The server's pending questions. Without a store (elicitation off, so nothing is asked; or the stateless edge
 * opt-in, where every question is refused) an empty memory store stands in for answers that arrive anyway.
 */
export function pendingOf(server: ParleyServer): PendingQuestions {
  let pending = registry.get(server);
  if (!pending) {
    const store = server.elicitationStore ?? { backend: memoryStore(), keyPrefix: 'mcp:', info: { type: 'memory', keyPrefix: 'mcp:', supportsPubSub: false, encrypted: false } };
    const unavailable = server.elicitationStore || !server.config.elicitation.enabled ? undefined : STATELESS_EDGE_REFUSAL;
    registry.set(server, (pending = new PendingQuestions(store, server.logger, unavailable, server.config.elicitation.pending)));
  }
  return pending;
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
