// Questions waiting for clients before 2026-07-28, as the store keeps them: each under its session and its request id,
// answered by publish/subscribe from any instance, and ended with an error (never in silence) when the store or the
// session lets it down. The waiting itself, in this process, is waiters.ts's.
import { PublicMcpError, StoreUnavailableError } from '../../protocol';
import type { Logger } from '../../runtime';
import { memoryStore, type ElicitationStore } from '../../stores';
import type { ServerSettings } from '../../model';
import { type Asking, type PendingLimits, openRecord, sealRecord, type ElicitParams, type RawAnswer } from '../../elicitation';
import { LocalWaiters } from './waiters';

export const DECRYPT_FAILED = '[EncryptedElicitationStore] Failed to decrypt pending record';

interface OpenQuestion {
  /** The client's answer; rejects when the question can no longer be answered (its session ended, the store lost it). */
  answer: Promise<RawAnswer>;
  /** Stops listening and removes the stored question; call once the wait is over, however it ended. Never rejects (a failure is logged). */
  close(): Promise<void>;
}

/**
 * What became of an answer: `delivered` to the waiting call (here, or published to a subscriber); `no-question` when
 * no question of the session has that id (answered already, timed out, never asked); `no-listener` when the question is
 * stored but nobody subscribed hears it (the instance that asked is gone, or the store passes nothing between processes);
 * `unreadable` when the stored question can't be decrypted here (another secret): whether anyone waits can't be told.
 */
export type Delivery = 'delivered' | 'no-question' | 'no-listener' | 'unreadable';

/** A channel subscription shared by every question of one session that waits here. */
interface SessionWatch {
  count: number;
  stop: Promise<() => Promise<void>>;
}

/** The question waited in a store that no longer holds it: the store restarted without its data, or it was deleted. */
const QUESTION_LOST =
  'The question was lost while it waited: the elicitation store no longer holds it (Redis restarted without persistence, or the record was deleted). Call the tool again';

/**
 * How long an answer is published again while nobody hears it (a subscriber reconnecting, or following a cluster
 * failover to the new master: a slots refresh is a second, then it subscribes again), and the first wait.
 */
const PUBLISH_PATIENCE_MS = 2_500;
const PUBLISH_RETRY_MS = 150;

export class PendingQuestions {
  // Questions asked by this process: an answer that reaches the instance that asked needs no store round trip.
  private readonly waiters: LocalWaiters;
  private readonly sessions = new Map<string, SessionWatch>();
  private stopRestored?: () => void;
  constructor(
    private readonly store: ElicitationStore,
    private readonly logger: Logger,
    /** Set when no store can keep questions here (the stateless edge opt-in): every question is refused with it. */
    readonly unavailable?: string,
    limits?: PendingLimits,
  ) {
    this.waiters = new LocalWaiters(limits);
  }

  /** How many questions wait now in this process for the session. */
  waiting(sessionId: string): number {
    return this.waiters.waiting(sessionId);
  }

  /** How many questions wait now in this process, over every session. */
  get size(): number {
    return this.waiters.size;
  }

  private key(kind: 'pending' | 'result' | 'answer' | 'ended', id: string): string {
    return `${this.store.keyPrefix}${kind}:${id}`;
  }

  /** Records the question (an elicitation, or a sampling or roots request) and starts listening for its answer. Call it before the question is sent. */
  async open(asking: Asking, elicitId: string, params: ElicitParams | Record<string, unknown>, ttlMs: number): Promise<OpenQuestion> {
    const { sessionId } = asking;
    // Counted before the first await, so questions asked together cannot pass the limits together.
    const { waiter, remove } = this.waiters.add(asking, elicitId);
    this.watchRestarts();
    const { backend, secret } = this.store;
    const questionKey = this.key('pending', `${sessionId}:${elicitId}`);
    const sessionKey = this.key('pending', sessionId);
    // Where an answer is kept beside its publish: only over a store whose subscriptions can drop (see checkRecords).
    const answerKey = backend.onRestored && this.key('answer', `${sessionId}:${elicitId}`);
    const stops: (() => Promise<void>)[] = [];
    const undo = async () => {
      remove();
      await Promise.all(stops.splice(0).map((stop) => stop().catch(() => undefined)));
    };
    const now = Date.now();
    // Both subscriptions and the stored question at once: one store round trip before the question goes out, not four.
    const failed = (
      await Promise.allSettled([
        backend
          .subscribe(this.key('result', elicitId), (message) => {
            void openRecord<{ answer: RawAnswer }>(message, secret).then((opened) => {
              if (opened.ok && opened.record.sessionId === sessionId && opened.record.elicitId === elicitId)
                waiter.deliver(opened.record.answer ?? {});
              else
                this.logger.warn(
                  `Ignored a published answer for elicitation ${elicitId}: ${opened.ok ? 'it names another session' : opened.reason}`,
                );
            });
          })
          .then((stop) => stops.push(stop)),
        this.watchSession(sessionId).then((stop) => stops.push(stop)),
        // The question under its own key (what an answer's instance reads), and as the session's newest (the docs' key).
        sealRecord({ sessionId, elicitId, createdAt: now, expiresAt: now + ttlMs, params: { ...params } }, secret).then((sealed) =>
          Promise.all([backend.set(questionKey, sealed, ttlMs), backend.set(sessionKey, sealed, ttlMs)]),
        ),
      ])
    ).find((result) => result.status === 'rejected');
    if (failed) {
      await undo();
      // The tool's caller learns why its call ended: the store, not the tool.
      const reason: unknown = failed.reason;
      throw reason instanceof StoreUnavailableError
        ? new StoreUnavailableError(`The question could not be kept. ${reason.message}`)
        : reason;
    }
    return {
      answer: waiter.answer,
      // All at once, and never failing: the call need not wait for the store (a record left behind expires).
      close: () =>
        Promise.all([undo(), backend.delete(questionKey), backend.get(sessionKey), answerKey && backend.delete(answerKey)])
          .then(([, , stored]) =>
            // A newer question of the session may have replaced this one as the newest; leave that one alone.
            stored && (JSON.parse(stored) as { elicitId?: string }).elicitId === elicitId ? backend.delete(sessionKey) : undefined,
          )
          .catch((error: unknown) => this.logger.warn('Could not remove an answered question from the store', error)),
    };
  }

  /**
   * An answer a client POSTed for its session: to the waiter in this process, else through the store to the instance
   * that asked. Says what became of it, so an answer nobody waits for is refused rather than accepted.
   */
  async deliver(sessionId: string, elicitId: string, answer: RawAnswer): Promise<Delivery> {
    const local = this.waiters.get(elicitId);
    if (local) {
      if (local.sessionId !== sessionId) return 'no-question';
      local.deliver(answer);
      return 'delivered';
    }
    const { backend, secret } = this.store;
    const stored = await backend.get(this.key('pending', `${sessionId}:${elicitId}`));
    if (!stored) return 'no-question';
    const opened = await openRecord<{ params: ElicitParams }>(stored, secret);
    if (!opened.ok) {
      if (opened.reason === 'undecryptable') this.logger.warn(DECRYPT_FAILED);
      return opened.reason === 'undecryptable' ? 'unreadable' : 'no-question';
    }
    if (opened.record.elicitId !== elicitId || opened.record.sessionId !== sessionId) return 'no-question';
    const { expiresAt } = opened.record;
    const message = await sealRecord({ sessionId, elicitId, createdAt: Date.now(), expiresAt, answer }, secret);
    const channel = this.key('result', elicitId);
    // Kept before it is published, where a store can drop a subscription (a reconnection, a cluster failover): a
    // subscriber that was moving reads it once it is back (checkRecords), even if the publish reached nobody.
    const kept = backend.onRestored && this.key('answer', `${sessionId}:${elicitId}`);
    if (kept) await backend.set(kept, message, expiresAt - Date.now());
    // Fast path: the asking instance hears the first publish. Nobody heard it: over a store that reaches other
    // processes, its subscriber may be moving (a reconnection, a failover's slots refresh), so keep trying for a
    // while, each wait twice the last; a local-only store never will.
    const started = Date.now();
    for (let wait = PUBLISH_RETRY_MS; ; wait *= 2) {
      if ((await backend.publish(channel, message)) > 0) return 'delivered';
      if (!backend.supportsPubSub || Date.now() - started + wait > PUBLISH_PATIENCE_MS) break;
      await sleep(wait);
    }
    // Refused, so not kept: the client is told nobody waits for it.
    if (kept) await backend.delete(kept);
    return 'no-listener';
  }

  /**
   * The session ended here (DELETE, expiry, the store lost it): its questions waiting in this process fail with a
   * JSON-RPC error naming why, and so do those waiting on other instances, told on the session's channel.
   */
  async endSession(sessionId: string, why: string): Promise<void> {
    this.waiters.failSession(sessionId, why);
    if (this.store.backend.supportsPubSub)
      await this.store.backend.publish(this.key('ended', sessionId), JSON.stringify({ sessionId, why }));
  }

  /** Resolves once no question waits in this process (at once when none does). */
  idle(): Promise<void> {
    return this.waiters.idle();
  }

  /** Fails every question waiting in this process (the server is shutting down). */
  failAll(error: Error): void {
    this.waiters.failAll(error);
  }

  /** One subscription per session with questions waiting here: another instance says on it that the session ended. */
  private async watchSession(sessionId: string): Promise<() => Promise<void>> {
    let watch = this.sessions.get(sessionId);
    if (!watch) {
      const stop = this.store.backend.subscribe(this.key('ended', sessionId), (message) => {
        let why = 'it was ended on another instance';
        try {
          const said = JSON.parse(message) as { sessionId?: unknown; why?: unknown };
          if (said.sessionId !== sessionId) return;
          if (typeof said.why === 'string') why = said.why.slice(0, 200);
        } catch {
          return;
        }
        this.waiters.failSession(sessionId, why);
      });
      this.sessions.set(sessionId, (watch = { count: 0, stop }));
      stop.catch(() => this.sessions.get(sessionId) === watch && this.sessions.delete(sessionId));
    }
    watch.count++;
    const own = watch;
    await own.stop;
    let left = false;
    return async () => {
      if (left) return;
      left = true;
      if (--own.count > 0 || this.sessions.get(sessionId) !== own) return;
      this.sessions.delete(sessionId);
      await (await own.stop)();
    };
  }

  /**
   * Once per process: each time the store's connection comes back, every question waiting here reads the answer kept
   * for it (published while its subscription was down or moving) and checks that its record survived. One that didn't
   * (Redis restarted without persistence) fails now, not when its ttl runs out.
   */
  private watchRestarts(): void {
    if (this.stopRestored || !this.store.backend.onRestored) return;
    this.stopRestored = this.store.backend.onRestored(() => void this.checkRecords());
  }

  private async checkRecords(): Promise<void> {
    const { backend, secret } = this.store;
    await Promise.all(
      this.waiters.entries().map(async ([elicitId, waiter]) => {
        const id = `${waiter.sessionId}:${elicitId}`;
        try {
          const [question, kept] = await Promise.all([backend.get(this.key('pending', id)), backend.get(this.key('answer', id))]);
          if (this.waiters.get(elicitId) !== waiter) return;
          // An answer published while this side's subscription was moving: it may have reached nobody.
          const opened = kept === undefined ? undefined : await openRecord<{ answer: RawAnswer }>(kept, secret);
          if (opened?.ok && opened.record.sessionId === waiter.sessionId && opened.record.elicitId === elicitId)
            waiter.deliver(opened.record.answer ?? {});
          else if (question === undefined) waiter.fail(new PublicMcpError(QUESTION_LOST, 'ELICITATION_LOST'));
        } catch {
          // The store dropped again: the next reconnection checks once more.
        }
      }),
    );
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const STATELESS_EDGE_REFUSAL =
  "Clients before 2026-07-28 can't be asked here: this server runs on an edge runtime with elicitation.edge: 'stateless' and no distributed store. Use a client that speaks 2026-07-28, or give the server a store: Redis over HTTP, with enableRedisHttp() from parley-mcp/redis-http in the entry and UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN set, or on Cloudflare Workers Durable Objects, with the ParleyStore class bound as PARLEY_STORE and enableDurableObjects() from parley-mcp/cloudflare in the entry.";

/**
 * The server's pending questions. Without a store (elicitation off, so nothing is asked; or the stateless edge
 * opt-in, where every question is refused) an empty memory store stands in for answers that arrive anyway.
 */
export function createPendingQuestions(
  settings: ServerSettings['elicitation'],
  store: ElicitationStore | undefined,
  logger: Logger,
): PendingQuestions {
  const kept = store ?? {
    backend: memoryStore(),
    keyPrefix: 'mcp:',
    info: { type: 'memory', keyPrefix: 'mcp:', supportsPubSub: false, encrypted: false },
  };
  const unavailable = store || !settings.enabled ? undefined : STATELESS_EDGE_REFUSAL;
  return new PendingQuestions(kept, logger, unavailable, settings.pending);
}
