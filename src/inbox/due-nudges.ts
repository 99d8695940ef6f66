// Nudges that wait, kept in the store: where a timer ends with its request (an edge isolate), a question filed beside
// a 2026-07-28 round or for a task is nudged by whichever request finds it due: the next call that files or asks a
// question, an inbox read, or the cron route (GET /_frontmcp/deadlines). A webhook's next attempt after a failure waits
// the same way. One deadline mechanism for Durable Objects and Redis over HTTP alike, which has no timer at all; with
// Durable Objects and the Worker's self binding, the due set's alarm also calls the cron route when an entry comes due.
// An addressed question's deadlines (escalation and expiry, escalation.ts) wait in the same set.
import { INBOX_BASE } from '../protocol';
import type { StoreSortedSets } from '../stores';
import type { QuestionStore, StoredQuestion } from './question-store';

/** One waiting nudge: whose question, and from when it is due. */
interface Due {
  subject: string;
  id: string;
  at: number;
  /** When the question expires: the entry goes with it. */
  until: number;
  /** An addressed question's deadline (escalation.ts) instead of a nudge: its step. */
  step?: number;
}

/** Where a webhook's nudge is after a failed attempt: the next attempt's number, and the delivery id every attempt keeps. */
interface NudgeRetry {
  attempt: number;
  delivery: string;
}

/**
 * The server-wide sorted set of what is due (kind `d`, no owner), scored by when: each entry is a member of its own,
 * added and removed in one step, so two isolates that file a question in the same instant both keep theirs. Members
 * are sealed, as every record is, so subjects never show in the store.
 */
const SET = ['d', '', 'due'] as const;
/** Past this many waiting nudges the soonest due go first (their questions still wait in the inbox). */
const MAX_WAITING = 1_000;
/** A sweep sends at most this many; the next request sends the rest. */
const PER_SWEEP = 100;

export class DueNudges {
  private readonly sets: StoreSortedSets;

  /** `origin`: where the server was last reached, so a due set's alarm calls the cron route there (links in nudges point to it). */
  constructor(
    private readonly store: QuestionStore,
    private readonly origin: () => string | undefined = () => undefined,
  ) {
    // Every store an edge runtime keeps questions in has them (Durable Objects, Redis over HTTP).
    this.sets = store.records.backend.sortedSets!;
  }

  /**
   * Keeps `question`'s nudge until `at`: its token (taken by the one request that sends it) and its entry in the set;
   * with `retry`, a webhook's next attempt after `retry.attempt - 1` failed; with `step`, a deadline of the question
   * instead (its token is the deadline's own, escalation.ts).
   */
  async add(subject: string, question: StoredQuestion, at: number, retry?: NudgeRetry | { step: number }): Promise<void> {
    const ttlMs = question.expiresAt - Date.now();
    if (!(ttlMs > 0)) return;
    const { records } = this.store;
    const { step } = (retry ?? {}) as { step?: number };
    if (step === undefined) {
      await records.mark('n', subject, question.id, ttlMs);
      if (retry) await records.put('r', subject, question.id, retry, ttlMs);
    }
    const key = await records.name(...SET);
    const entry: Due = { subject, id: question.id, at, until: question.expiresAt, step };
    const origin = this.origin();
    const wake = origin === undefined ? {} : { wake: `${origin}${INBOX_BASE}/deadlines` };
    await this.sets.add(key, await records.sealing.seal(entry, '', key), at, { ttlMs, max: MAX_WAITING, ...wake });
  }

  /** Where the question's nudge is, when an earlier attempt failed (taken: read once); undefined for a first attempt. */
  retryOf(subject: string, id: string): Promise<NudgeRetry | undefined> {
    return this.store.records.take<NudgeRetry>('r', subject, id);
  }

  /**
   * Sends each nudge due by `now` whose question is still open, once across every isolate, and fires each deadline due
   * (`deadline`, escalation.ts, which takes its own token); resolves with how many nudges it sent.
   */
  async sweep(
    send: (subject: string, question: StoredQuestion) => Promise<void> | void,
    now = Date.now(),
    deadline?: (subject: string, id: string, step: number) => Promise<void>,
  ): Promise<number> {
    const { records } = this.store;
    let sent = 0;
    // Fast path: one read under one name (one secret), with nothing due, as on nearly every request.
    for (const { key } of await records.names(...SET)) {
      for (const member of await this.sets.upTo(key, now, PER_SWEEP)) {
        // Out of the set for everyone first; of two isolates that read it, the token says which one sends.
        await this.sets.remove(key, member);
        const due = await records.sealing.open<unknown>(member, '', key);
        if (!isDue(due) || due.until <= now) continue;
        if (due.step !== undefined) {
          await deadline?.(due.subject, due.id, due.step);
          continue;
        }
        // Taken once: another isolate's sweep, or an answer in the meantime (the question is no longer open), sends none.
        if (!(await records.find('n', due.subject, due.id, true))) continue;
        const question = await this.store.byId(due.subject, due.id);
        if (!question || !(await this.store.isOpen(due.subject, due.id))) continue;
        await send(due.subject, question);
        sent++;
      }
    }
    return sent;
  }
}

/** A member as this class seals it (what it opens was sealed here, so only its shape is checked). */
const isDue = (value: unknown): value is Due => {
  const d = value as Partial<Due> | undefined;
  return typeof d?.subject === 'string' && typeof d.id === 'string' && typeof d.until === 'number';
};
