// Questions waiting for clients before 2026-07-28, as the store keeps them: each under its session and its request id,
// answered by publish/subscribe from any instance, and ended with an error (never in silence) when the store or the
// session lets it down. The waiting itself, in this process, is waiters.ts's.
import { PublicMcpError, StoreUnavailableError } from '../../protocol';
import type { Logger } from '../../runtime';
import { memoryStore, QuestionKeys, QuestionRecords, QuestionSeal, type ElicitationStore } from '../../stores';
import type { ServerSettings } from '../../model';
import { type Asking, type PendingLimits, sealRecord, type ElicitParams, type RawAnswer } from '../../elicitation';
import { legacyPendingRecords } from './pending-legacy';
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

/** A question as the store keeps it (sealed whole, its session the owner of the key, its storage key the additional data). */
interface PendingRecord {
  sessionId: string;
  elicitId: string;
  createdAt: number;
  expiresAt: number;
  params?: Record<string, unknown>;
}

/** An answer as it is published and kept. */
interface PublishedAnswer {
  sessionId: string;
  elicitId: string;
  answer: RawAnswer;
}

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
  /** The question store's records (stores/questions): kinds `pending`, `answer`, channels `result` and `ended`. */
  private readonly records: QuestionRecords;
  constructor(
    private readonly store: ElicitationStore,
    private readonly logger: Logger,
    /** Set when no store can keep questions here (the stateless edge opt-in): every question is refused with it. */
    readonly unavailable?: string,
    limits?: PendingLimits,
  ) {
    this.waiters = new LocalWaiters(limits);
    const { backend, keyPrefix, secret } = store;
    this.records = new QuestionRecords(
      backend,
      new QuestionKeys(keyPrefix, secret),
      new QuestionSeal(secret),
      legacyPendingRecords(keyPrefix, secret),
    );
  }

  /** How many questions wait now in this process for the session. */
  waiting(sessionId: string): number {
    return this.waiters.waiting(sessionId);
  }

  /** How many questions wait now in this process, over every session. */
  get size(): number {
    return this.waiters.size;
  }

  /** Records the question (an elicitation, or a sampling or roots request) and starts listening for its answer. Call it before the question is sent. */
  async open(
    asking: Asking,
    elicitId: string,
    params: ElicitParams | Record<string, unknown>,
    ttlMs: number,
    callEnded?: AbortSignal,
  ): Promise<OpenQuestion> {
    const { sessionId } = asking;
    // Counted before the first await, so questions asked together cannot pass the limits together.
    const { waiter, remove } = this.waiters.add(asking, elicitId);
    // Its call may end while the question is still being kept (another question of the call refused at a limit): it
    // stops counting then, not once the store is done, so the session's next call can ask.
    callEnded?.addEventListener('abort', remove, { once: true });
    this.watchRestarts();
    const { backend } = this.store;
    const { records } = this;
    const channel = await records.name('result', sessionId, elicitId);
    const stops: (() => Promise<void>)[] = [];
    const undo = async () => {
      callEnded?.removeEventListener('abort', remove);
      remove();
      await Promise.all(stops.splice(0).map((stop) => stop().catch(() => undefined)));
    };
    const now = Date.now();
    // Both subscriptions and the stored question at once: one store round trip before the question goes out, not four.
    const failed = (
      await Promise.allSettled([
        backend
          .subscribe(channel, (message) => {
            void records.sealing.open<PublishedAnswer>(message, sessionId, channel).then((opened) => {
              if (opened?.sessionId === sessionId && opened.elicitId === elicitId) waiter.deliver(opened.answer ?? {});
              else this.logger.warn(`Ignored a published answer for elicitation ${elicitId}: it does not open here`);
            });
          })
          .then((stop) => stops.push(stop)),
        this.watchSession(sessionId).then((stop) => stops.push(stop)),
        // The question under its own key (what an answer's instance reads), and as the session's newest (the docs' key).
        (async () => {
          const record: PendingRecord = { sessionId, elicitId, createdAt: now, expiresAt: now + ttlMs, params: { ...params } };
          await Promise.all([
            records.put('pending', sessionId, elicitId, record, ttlMs),
            records.put('pending', sessionId, '', record, ttlMs),
          ]);
        })(),
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
        Promise.all([
          undo(),
          records.drop('pending', sessionId, elicitId),
          records.read<PendingRecord>('pending', sessionId),
          backend.onRestored && records.drop('answer', sessionId, elicitId),
        ])
          .then(([, , newest]) =>
            // A newer question of the session may have replaced this one as the newest; leave that one alone.
            newest?.elicitId === elicitId ? records.drop('pending', sessionId) : undefined,
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
    const { records } = this;
    const found = await records.find('pending', sessionId, elicitId);
    if (!found) return 'no-question';
    const record = await records.open<PendingRecord>(found, sessionId);
    if (!record) {
      if (secret !== undefined) this.logger.warn(DECRYPT_FAILED);
      return secret !== undefined ? 'unreadable' : 'no-question';
    }
    if (record.elicitId !== elicitId || record.sessionId !== sessionId || record.expiresAt <= Date.now()) return 'no-question';
    const { expiresAt } = record;
    const value: PublishedAnswer = { sessionId, elicitId, answer };
    // On every listed secret's channel name (the asking instance listens under its first secret, which may be another
    // of the list than this one's), each message sealed for its channel.
    const channels = await Promise.all(
      (await records.keys.names('result', sessionId, elicitId)).map(async (channel) => ({
        channel,
        message: await records.sealing.seal(value, sessionId, channel),
      })),
    );
    // Kept before it is published, where a store can drop a subscription (a reconnection, a cluster failover): a
    // subscriber that was moving reads it once it is back (checkRecords), even if the publish reached nobody.
    const keep = backend.onRestored !== undefined;
    if (keep) await records.put('answer', sessionId, elicitId, value, expiresAt - Date.now());
    // A question an instance of an older release asked (found under its legacy name) listens where it always did.
    const legacy = found.legacy && (await legacyAnswer(this.store.keyPrefix, { sessionId, elicitId, expiresAt, answer }, secret));
    // Fast path: the asking instance hears the first publish. Nobody heard it: over a store that reaches other
    // processes, its subscriber may be moving (a reconnection, a failover's slots refresh), so keep trying for a
    // while, each wait twice the last; a local-only store never will.
    const started = Date.now();
    for (let wait = PUBLISH_RETRY_MS; ; wait *= 2) {
      const heard = await Promise.all((legacy ? [legacy] : channels).map(({ channel, message }) => backend.publish(channel, message)));
      if (heard.some((count) => count > 0)) return 'delivered';
      if (!backend.supportsPubSub || Date.now() - started + wait > PUBLISH_PATIENCE_MS) break;
      await sleep(wait);
    }
    // Refused, so not kept: the client is told nobody waits for it.
    if (keep) await records.drop('answer', sessionId, elicitId);
    return 'no-listener';
  }

  /**
   * The session ended here (DELETE, expiry, the store lost it): its questions waiting in this process fail with a
   * JSON-RPC error naming why, and so do those waiting on other instances, told on the session's channel.
   */
  async endSession(sessionId: string, why: string): Promise<void> {
    this.waiters.failSession(sessionId, why);
    if (this.store.backend.supportsPubSub)
      await Promise.all(
        (await this.records.keys.names('ended', sessionId)).map((channel) =>
          this.store.backend.publish(channel, JSON.stringify({ sessionId, why })),
        ),
      );
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
      const stop = this.records.name('ended', sessionId).then((channel) =>
        this.store.backend.subscribe(channel, (message) => {
          let why = 'it was ended on another instance';
          try {
            const said = JSON.parse(message) as { sessionId?: unknown; why?: unknown };
            if (said.sessionId !== sessionId) return;
            if (typeof said.why === 'string') why = said.why.slice(0, 200);
          } catch {
            return;
          }
          this.waiters.failSession(sessionId, why);
        }),
      );
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
    const { records } = this;
    await Promise.all(
      this.waiters.entries().map(async ([elicitId, waiter]) => {
        const { sessionId } = waiter;
        try {
          const [question, kept] = await Promise.all([
            records.has('pending', sessionId, elicitId),
            records.read<PublishedAnswer>('answer', sessionId, elicitId),
          ]);
          if (this.waiters.get(elicitId) !== waiter) return;
          // An answer published while this side's subscription was moving: it may have reached nobody.
          if (kept?.sessionId === sessionId && kept.elicitId === elicitId) waiter.deliver(kept.answer ?? {});
          else if (!question) waiter.fail(new PublicMcpError(QUESTION_LOST, 'ELICITATION_LOST'));
        } catch {
          // The store dropped again: the next reconnection checks once more.
        }
      }),
    );
  }
}

/**
 * An answer to a question an instance of an older release asked: its channel `result:<request id>` and its message
 * sealed as it reads it. Goes with pending-legacy.ts.
 */
async function legacyAnswer(
  keyPrefix: string,
  answer: { sessionId: string; elicitId: string; expiresAt: number; answer: RawAnswer },
  secret: string | undefined,
): Promise<{ channel: string; message: string }> {
  const message = await sealRecord({ ...answer, createdAt: Date.now() }, secret);
  return { channel: `${keyPrefix}result:${answer.elicitId}`, message };
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
