// The deadlines of a question addressed with `to`: each escalation step (`escalate`), after which more people may
// decide it and are nudged, and its expiry (`expire`), at which it ends undecided and the tool gets `cancel` with the
// reason. Who may decide follows the clock (addresseesAt); these deadlines log, nudge and expire, from the machinery
// that keeps every deadline: on an edge runtime the due set (a Durable Object's alarm, or the next request or the cron
// route with Redis over HTTP, due-nudges.ts), on Node a timer of the instance that filed it. The waiting call or task
// holds nothing. Each deadline has a token the one instance that fires it takes, so it fires once.
import type { Addressee, RequestScope } from '../model';
import { escapeLogText } from '../runtime';
import { type Addressing, listsOf } from './addressees';
import { outcomeOf } from './decisions';
import type { DueNudges } from './due-nudges';
import type { AnswerOutcome, QuestionStore, StoredAnswer, StoredQuestion } from './question-store';

/** What firing a deadline does besides the store: log (never throws), nudge (logged), answer (a task's or a call's). */
interface DeadlineHooks {
  log(owner: string, question: StoredQuestion, what: { event: 'escalated' | 'expired'; to?: Addressee[] }): Promise<void>;
  nudge(): ((owner: string, question: StoredQuestion) => Promise<void>) | undefined;
  answer(owner: string, question: StoredQuestion, answer: StoredAnswer, keepAlive: KeepAlive | undefined): Promise<AnswerOutcome>;
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

export class Escalations {
  constructor(
    private readonly store: QuestionStore,
    private readonly hooks: DeadlineHooks,
    /** The due set, on an edge runtime (set after the service is built); on Node, none: a timer. */
    private readonly due: () => DueNudges | undefined,
  ) {}

  /** By the question's filer: each deadline's token, and the deadline kept in the due set or a timer. */
  async schedule(owner: string, question: StoredQuestion): Promise<void> {
    const deadlines = deadlinesOf(question.addressed);
    if (deadlines.length === 0) return; // fast path: no escalation, no expiry
    const ttlMs = question.expiresAt - Date.now();
    await Promise.all(deadlines.map(({ step }) => this.store.records.mark(TOKEN, owner, `${question.id}:${step}`, ttlMs)));
    const due = this.due();
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

  /** Fires every deadline of the question that is past (a later call of its key, or a decision, catches up on a late one). */
  async catchUp(owner: string, question: StoredQuestion, keepAlive?: KeepAlive): Promise<void> {
    const now = Date.now();
    for (const { step, afterMs } of deadlinesOf(question.addressed))
      if (question.createdAt + afterMs <= now) await this.fire(owner, question.id, step, keepAlive);
  }

  /** Whether the question's expiry is past (it may not have fired yet: the due set runs when a request comes). */
  static expired(question: StoredQuestion, now = Date.now()): boolean {
    const expire = question.addressed?.expire;
    return expire !== undefined && question.createdAt + expire.afterMs <= now;
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
    await this.hooks.log(owner, question, { event: 'escalated', to: escalation.to });
    // The new addressees' open inboxes show it now; the waiting call hears of it too.
    await Promise.all([this.store.publishTo(listsOf(escalation.to), 'filed'), this.store.publish(owner, id, 'escalated')]);
    await this.hooks.nudge()?.(owner, question);
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
    const answered = await this.hooks.answer(owner, question, answer, keepAlive);
    if (answered.ok) await this.hooks.log(owner, question, { event: 'expired' });
  }
}
