// Questions waiting for clients before 2026-07-28, as the store keeps them: each under its session and its request id,
// answered by publish/subscribe from any instance, and ended with an error (never in silence) when the store or the
// session lets it down. The waiting itself, in this process, is waiters.ts's.
import { McpWireError, PublicMcpError, StoreUnavailableError } from '../../protocol';
import type { Logger } from '../../runtime';
import {
  isThread,
  memoryStore,
  newThread,
  QuestionKeys,
  QuestionRecords,
  QuestionSeal,
  type QuestionThread,
  QuestionThreads,
  type ElicitationStore,
  type ThreadLayout,
} from '../../stores';
import type { ServerSettings } from '../../model';
import { type Asking, type PendingLimits, sealRecord, type ElicitParams, type RawAnswer } from '../../elicitation';
import { legacyPendingRecords } from './pending-legacy';
import { LocalWaiters } from './waiters';

export const DECRYPT_FAILED = '[EncryptedElicitationStore] Failed to decrypt pending record';

interface OpenQuestion {
  /**
   * The client's answer; rejects when the question can no longer be answered (its session ended, the store lost it,
   * its call ended: then with the call's reason, as `endedBy` says it).
   */
  answer: Promise<RawAnswer>;
  /** Ends the wait with `error` (its ttl ran out, the client was told to drop it): the answer rejects with it. */
  fail(error: Error): void;
  /** Stops listening and removes the stored question; call once the wait is over, however it ended. Never rejects (a failure is logged). */
  close(): Promise<void>;
}

/** Why a call's signal fired: the server's reason (a wire or public error) as it is, else the client cancelled. */
export function endedBy(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof McpWireError || reason instanceof PublicMcpError
    ? reason
    : new PublicMcpError('The call was cancelled', 'CANCELLED');
}

/**
 * What became of an answer: `delivered` to the waiting call (here, or published to a subscriber); `no-question` when
 * no question of the session has that id (answered already, timed out, never asked); `no-listener` when the question is
 * stored but nobody subscribed hears it (the instance that asked is gone, or the store passes nothing between processes);
 * `unreadable` when the stored question can't be decrypted here (another secret): whether anyone waits can't be told.
 */
export type Delivery = 'delivered' | 'no-question' | 'no-listener' | 'unreadable';

/**
 * A question as the store keeps it: a one-question thread (stores/questions/thread.ts), its owner the session, its key
 * the request id; sealed whole, its session the owner of the key, its storage key the additional data.
 */
type PendingThread = QuestionThread<Record<string, unknown>, PublishedAnswer> & { elicitId: string };

/** A question's thread: its record `pending`, its open token `open` and its kept answer `answer`, by request id. */
const PENDING_THREAD: ThreadLayout = {
  record: (elicitId) => ['pending', elicitId],
  open: (elicitId) => ['open', elicitId],
  answer: (elicitId) => ['answer', elicitId],
};

/**
 * The question a stored value holds: a thread, or (`claimable: false`) a question as releases before threads kept it
 * (until 2026-12-06: `{ sessionId, elicitId, createdAt, expiresAt, params }`, no open token to claim). That shape waits
 * at most elicitation's ttl (minutes): its branch can go with pending-legacy.ts.
 */
function pendingOf(value: unknown): { sessionId: string; elicitId: string; expiresAt: number; claimable: boolean } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (isThread(value)) {
    const { owner, elicitId, expiresAt } = value as PendingThread;
    return typeof owner === 'string' ? { sessionId: owner, elicitId, expiresAt, claimable: true } : undefined;
  }
  const { sessionId, elicitId, expiresAt } = value as { sessionId: string; elicitId: string; expiresAt: number };
  return { sessionId, elicitId, expiresAt, claimable: false };
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
  /** Each question's thread: its record, its open token (the first answer claims it) and its kept answer. */
  private readonly threads: QuestionThreads;
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
    this.threads = new QuestionThreads(this.records, PENDING_THREAD);
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
    // Ends the wait: the question stops counting at once (not once the store is done), so the session's next call can ask.
    const fail = (error: Error) => {
      remove();
      waiter.fail(error);
    };
    // Its call may end while the question is kept (another question of the call refused at a limit) or while it waits:
    // one listener for both, the question's only one on the call's signal.
    const ended = () => callEnded && fail(endedBy(callEnded));
    callEnded?.addEventListener('abort', ended, { once: true });
    this.watchRestarts();
    const { backend } = this.store;
    const { records, threads } = this;
    const channel = await records.name('result', sessionId, elicitId);
    const stops: (() => Promise<void>)[] = [];
    const undo = async () => {
      callEnded?.removeEventListener('abort', ended);
      remove();
      await Promise.all(stops.splice(0).map((stop) => stop().catch(() => undefined)));
    };
    const now = Date.now();
    // What close() drops: the question's keys, not the thread (its params' copy) as it was written.
    let asked: Pick<QuestionThread, 'asked'> | undefined;
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
        // The question's thread under its own key (what an answer's instance reads), and as the session's newest (the
        // docs' key), with its open token: all at once, as the question goes out only once all are in.
        (async () => {
          const fresh: PendingThread = { elicitId, ...newThread({ owner: sessionId, createdAt: now, expiresAt: now + ttlMs }) };
          const question: [string, Record<string, unknown>] = [elicitId, { ...params }];
          const thread = threads.asked(fresh, [question]);
          await Promise.all([
            threads.opens(sessionId, elicitId, thread, [question]),
            threads.write(sessionId, elicitId, thread),
            threads.write(sessionId, '', thread),
          ]);
          return thread;
        })().then((thread) => (asked = { asked: thread.asked })),
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
      fail,
      // All at once, and never failing: the call need not wait for the store (a record left behind expires).
      close: () =>
        Promise.all([undo(), threads.drop(sessionId, elicitId, asked), threads.read<PendingThread>(sessionId, '')])
          .then(([, , newest]) =>
            // A newer question of the session may have replaced this one as the newest; leave that one alone.
            newest?.elicitId === elicitId ? threads.drop(sessionId, '', undefined) : undefined,
          )
          .catch((error: unknown) => this.logger.warn('Could not remove an answered question from the store', error)),
    };
  }

  /**
   * An answer a client POSTed for its session: to the waiter in this process, else through the store to the instance
   * that asked. Says what became of it, so an answer nobody waits for is refused rather than accepted.
   */
  async deliver(sessionId: string, elicitId: string, answer: RawAnswer): Promise<Delivery> {
    const { threads } = this;
    const local = this.waiters.get(elicitId);
    if (local) {
      // The first answer claims the question here too (a second, or one racing it on another instance, is refused).
      if (local.sessionId !== sessionId || !(await threads.claim(sessionId, elicitId, elicitId))) return 'no-question';
      local.deliver(answer);
      return 'delivered';
    }
    const { backend, secret } = this.store;
    const { records } = this;
    const found = await records.find('pending', sessionId, elicitId);
    if (!found) return 'no-question';
    const opened = await records.open<unknown>(found, sessionId);
    if (opened === undefined) {
      if (secret !== undefined) this.logger.warn(DECRYPT_FAILED);
      return secret !== undefined ? 'unreadable' : 'no-question';
    }
    const record = pendingOf(opened);
    if (record?.elicitId !== elicitId || record.sessionId !== sessionId || record.expiresAt <= Date.now()) return 'no-question';
    const { expiresAt, claimable } = record;
    // The first answer wins: it claims the question's open token (a question an older release asked has none).
    if (claimable && !(await threads.claim(sessionId, elicitId, elicitId))) return 'no-question';
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
    if (keep) await threads.keep(sessionId, elicitId, elicitId, value, expiresAt - Date.now());
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
    // Refused, so not kept, and the question open again: the client is told nobody waits for it.
    await Promise.all([
      keep && threads.take(sessionId, elicitId, elicitId),
      claimable && threads.reopen(sessionId, elicitId, elicitId, expiresAt - Date.now()),
    ]);
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
    const { records, threads } = this;
    await Promise.all(
      this.waiters.entries().map(async ([elicitId, waiter]) => {
        const { sessionId } = waiter;
        try {
          const [question, kept] = await Promise.all([
            records.has('pending', sessionId, elicitId),
            threads.kept<PublishedAnswer>(sessionId, elicitId, elicitId),
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
