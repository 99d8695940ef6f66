// The deadlines of a question addressed with `to`: each escalation step (`escalate`), after which more people may
// decide it and are nudged, and its expiry (`expire`), at which it ends undecided and the tool gets `cancel` with the
// reason. Who may decide follows the clock (addresseesAt); these deadlines log, nudge and expire, from the machinery
// that keeps every deadline: on an edge runtime the due set (a Durable Object's alarm, or the next request or the cron
// route with Redis over HTTP, due-nudges.ts), on Node a timer of the instance that filed it. The waiting call or task
// holds nothing. Each deadline has a token the one instance that fires it takes, so it fires once.
// Loaded with the inbox's OpenID Connect sign-in, which the addressees need (app/: on Node where http.auth.oidc is set,
// on the edge once the entry calls enableOidcSignIn()), so an inbox whose people sign in with codes does not carry it.
import type { Addressee, Escalation, RequestScope } from '../model';
import { InvalidInputError } from '../protocol';
import { escapeLogText } from '../runtime';
import { type Addressing, escalationOf, listsOf, readAddressees } from './addressees';
import { outcomeOf } from './decisions';
import type { DecisionLog } from './decision-log';
import type { DueNudges } from './due-nudges';
import type { AnswerOutcome, QuestionStore, StoredAnswer, StoredQuestion } from './question-store';

/** The service whose questions' deadlines these are: its store, log and nudge, and how it answers a question. */
interface DeadlineOwner {
  readonly store: QuestionStore;
  readonly log?: DecisionLog;
  readonly notify?: (subject: string, question: StoredQuestion) => Promise<void>;
  readonly dueNudges?: DueNudges;
  /** Waits for a log write; a failed one is logged and never stops what goes on. */
  note(write: Promise<void> | undefined): Promise<void>;
  notifyLogged(notify: NonNullable<DeadlineOwner['notify']>): NonNullable<DeadlineOwner['notify']>;
  answerOne(owner: string, question: StoredQuestion, answer: StoredAnswer, keepAlive: KeepAlive): Promise<AnswerOutcome>;
}

/** The platform's waitUntil (a Worker's ctx): a task that an expiry answers goes on after the response. */
type KeepAlive = RequestScope['keepAlive'];

/** A timer's longest wait (Node fires a longer one at once): a longer deadline waits again. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A deadline's token, per question and step (`x`: taken by the one instance that fires it). */
const TOKEN = 'x';

/** The deadlines of an addressed question: step i < n for `escalate[i]`, step n (the steps' count) for `expire`. */
function deadlinesOf(addressed: Addressing | undefined): { step: number; afterMs: number }[] {
  if (!addressed) return [];
  const steps = (addressed.escalate ?? []).map(({ afterMs }, step) => ({ step, afterMs }));
  return addressed.expire ? [...steps, { step: steps.length, afterMs: addressed.expire.afterMs }] : steps;
}

/** A duration as the default expiry reason says it: `4 h`, `30 min`, `1.5 s`. */
const shownMs = (ms: number) =>
  ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;

/** Escalation steps at most: each is a deadline and a nudge. */
const MAX_STEPS = 5;
const REASON = /^[^\u0000-\u001f\u007f]{1,500}$/;

/** A deadline's `afterMs` checked: a positive number of ms, after `after` (the step before) and before `ttlMs`. */
function readAfter(value: unknown, name: string, after: number, ttlMs: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new InvalidInputError(`${name} must be a positive number of milliseconds (got ${JSON.stringify(value) ?? 'nothing'})`);
  if (value <= after) throw new InvalidInputError(`${name} (${value}) must come after the deadline before it (${after})`);
  if (value >= ttlMs)
    throw new InvalidInputError(`${name} (${value}) must come before the question expires from the store (persist.ttlMs: ${ttlMs})`);
  return value;
}

/** `escalate` and `expire` checked, in order: each step after the one before, the expiry after the last. */
export function readDeadlines(
  { to, quorum, escalate, expire }: { to?: unknown; quorum?: unknown; escalate?: unknown; expire?: unknown },
  ttlMs: number,
): Pick<Addressing, 'escalate' | 'expire'> {
  if (escalate === undefined && expire === undefined) return {}; // fast path: neither
  let last = 0;
  const steps: Escalation[] = [];
  if (escalate !== undefined) {
    if (!Array.isArray(escalate) || escalate.length === 0 || escalate.length > MAX_STEPS)
      throw new InvalidInputError(
        `escalate must list 1-${MAX_STEPS} steps, e.g. escalate: [{ afterMs: 3_600_000, to: [{ subject: 'dave' }] }]`,
      );
    escalate.forEach((step: unknown, i) => {
      const name = `escalate[${i}]`;
      if (typeof step !== 'object' || step === null || Object.keys(step).some((k) => k !== 'afterMs' && k !== 'to'))
        throw new InvalidInputError(`${name} is { afterMs, to }, e.g. { afterMs: 3_600_000, to: [{ subject: 'dave' }] }`);
      const { afterMs, to } = step as Record<string, unknown>;
      last = readAfter(afterMs, `${name}.afterMs`, last, ttlMs);
      steps.push({ afterMs: last, to: readAddressees(to, `${name}.to`) });
    });
  }
  // Named people alone can never reach a quorum larger than they are, those of the steps included.
  const everyone = [...readAddressees(to, 'to'), ...steps.flatMap((step) => step.to)];
  const people = new Set(everyone.map((entry) => JSON.stringify(entry)));
  if (steps.length && everyone.every((entry) => !('group' in entry)) && typeof quorum === 'number' && quorum > people.size)
    throw new InvalidInputError(`quorum ${quorum} needs more accepts than the ${people.size} people named in to and escalate`);
  if (expire === undefined) return steps.length ? { escalate: steps } : {};
  if (typeof expire !== 'object' || expire === null || Object.keys(expire).some((k) => k !== 'afterMs' && k !== 'reason'))
    throw new InvalidInputError("expire is { afterMs, reason? }, e.g. { afterMs: 14_400_000, reason: 'Nobody approved in 4 hours' }");
  const { afterMs, reason } = expire as Record<string, unknown>;
  const at = readAfter(afterMs, 'expire.afterMs', last, ttlMs);
  if (reason !== undefined && (typeof reason !== 'string' || !REASON.test(reason)))
    throw new InvalidInputError('expire.reason must be 1-500 characters, no control characters');
  return {
    ...(steps.length ? { escalate: steps } : {}),
    expire: { afterMs: at, reason: (reason as string | undefined) ?? `Nobody decided within ${shownMs(at)}: the question expired` },
  };
}

export class Escalations {
  private readonly store: QuestionStore;

  /** `owner`'s due set, on an edge runtime (set after it is built), keeps the deadlines; on Node, none: a timer. */
  constructor(private readonly owner: DeadlineOwner) {
    this.store = owner.store;
  }

  /** The log's entry for a deadline: by the server itself, through its deadline. */
  private log(owner: string, question: StoredQuestion, what: { event: 'escalated' | 'expired'; to?: Addressee[] }): Promise<void> {
    const action = what.event === 'expired' ? ({ action: 'cancel' } as const) : {};
    return this.owner.note(this.owner.log?.record(owner, question, { by: 'parley', channel: 'deadline', ...what, ...action }));
  }

  /** By the question's filer: each deadline's token, and the deadline kept in the due set or a timer. */
  async schedule(owner: string, question: StoredQuestion): Promise<void> {
    const deadlines = deadlinesOf(question.addressed);
    if (deadlines.length === 0) return; // fast path: no escalation, no expiry
    const ttlMs = question.expiresAt - Date.now();
    await Promise.all(deadlines.map(({ step }) => this.store.records.mark(TOKEN, owner, `${question.id}:${step}`, ttlMs)));
    const due = this.owner.dueNudges;
    for (const { step, afterMs } of deadlines) {
      const at = question.createdAt + afterMs;
      if (due) await due.add(owner, question, at, { step });
      else this.arm(owner, question.id, step, at);
    }
  }

  /** A timer for one deadline (Node), re-armed if it woke early or the wait is longer than a timer's. */
  private arm(owner: string, id: string, step: number, at: number): void {
    const wait = at - Date.now();
    const wake = () => (Date.now() < at ? this.arm(owner, id, step, at) : void this.fireOrWarn(owner, id, step));
    (setTimeout(wake, Math.min(Math.max(0, wait), MAX_TIMER_MS)) as { unref?: () => void }).unref?.();
  }

  /** A later call of the key: fires what is past of its question's deadlines (one a restarted Node instance never fired). */
  async catchUpKey(owner: string, key: string, keepAlive?: KeepAlive): Promise<void> {
    const question = await this.store.byKey(owner, key);
    if (question) await this.catchUp(owner, question, keepAlive);
  }

  /** Fires every deadline of the question that is past (a later call of its key, or a decision, catches up on a late one). */
  async catchUp(owner: string, question: StoredQuestion, keepAlive?: KeepAlive): Promise<void> {
    const now = Date.now();
    for (const { step, afterMs } of deadlinesOf(question.addressed))
      if (question.createdAt + afterMs <= now) await this.fire(owner, question.id, step, keepAlive);
  }

  /** `elicit()`'s `escalate` and `expire` checked (`ttlMs`: how long the question is kept; its deadlines come before). */
  read(
    options: { to?: unknown; quorum?: unknown; escalate?: unknown; expire?: unknown },
    ttlMs: number,
  ): Pick<Addressing, 'escalate' | 'expire'> {
    return readDeadlines(options, ttlMs);
  }

  /** What the inbox shows of an addressed question's latest escalation in force (`escalated`: when, and whom it added). */
  shown(question: Pick<StoredQuestion, 'addressed' | 'createdAt'>): { escalated?: { at: number; to: Addressee[] } } {
    const escalated = escalationOf(question.addressed!, question.createdAt);
    return escalated ? { escalated } : {};
  }

  /** Fires the question's deadlines if its expiry is past (the due set may not have run yet: it runs when a request comes). */
  async expireIfDue(owner: string, question: StoredQuestion, keepAlive?: KeepAlive): Promise<void> {
    const expire = question.addressed?.expire;
    if (expire && question.createdAt + expire.afterMs <= Date.now()) await this.catchUp(owner, question, keepAlive);
  }

  /** `fire`, where nobody waits for it (a timer, the due set's sweep): a failure is logged, and what runs goes on. */
  readonly fireOrWarn = (owner: string, id: string, step: number, keepAlive?: KeepAlive): Promise<void> =>
    this.fire(owner, id, step, keepAlive).catch((error: unknown) =>
      console.error(escapeLogText(`[parley] WARN A question's deadline did not fire: ${(error as Error)?.message ?? error}`)),
    );

  /** One deadline, once across instances: an open question is escalated (logged, nudged) or expired (answered `cancel`). */
  async fire(owner: string, id: string, step: number, keepAlive?: KeepAlive): Promise<void> {
    const question = await this.store.byId(owner, id);
    const deadline = deadlinesOf(question?.addressed).find((d) => d.step === step);
    if (!question || !deadline || Date.now() < question.createdAt + deadline.afterMs) return;
    if (!(await this.store.isOpen(owner, id))) return; // answered: nothing to escalate or expire
    if (!(await this.store.records.claim(TOKEN, owner, `${id}:${step}`))) return; // fired elsewhere, or before
    const addressed = question.addressed!;
    const escalation = addressed.escalate?.[step];
    if (!escalation) return this.expire(owner, question, keepAlive);
    await this.log(owner, question, { event: 'escalated', to: escalation.to });
    // The new addressees' open inboxes show it now; the waiting call hears of it too.
    await Promise.all([this.store.publishTo(listsOf(escalation.to), 'filed'), this.store.publish(owner, id, 'escalated')]);
    const { notify } = this.owner;
    if (notify) await this.owner.notifyLogged(notify)(owner, question);
  }

  /** Ends the question undecided: `cancel`, the reason and the decisions made so far go to the tool. */
  private async expire(owner: string, question: StoredQuestion, keepAlive: KeepAlive | undefined): Promise<void> {
    const addressed = question.addressed!;
    const outcome = outcomeOf(await this.store.decisions.read(owner, question.id), addressed);
    if (outcome.done) return; // a decider reached the quorum (or the declines) a moment ago, and answers it
    const answer: StoredAnswer = {
      action: 'cancel',
      answeredAt: Date.now(),
      reason: addressed.expire!.reason,
      decisions: outcome.decisions,
    };
    const answered = await this.owner.answerOne(owner, question, answer, keepAlive);
    if (answered.ok) await this.log(owner, question, { event: 'expired' });
  }
}
