// The unanswered-question policy: a question the client does not (or cannot) answer moves to the caller's inbox, or
// fails the call. One path per way a question travels: the call's stream, the fallback, and 2026-07-28 rounds.
// Loaded on Node only, through "#node-only" (an edge bundle leaves it out: it would not fit the Worker budget).
import { canonicalJson } from './request-state';
import { sha256, toBase64Url } from '../crypto';
import {
  ElicitationNotSupportedError,
  InboxPendingError,
  InvalidInputError,
  QuestionAlreadyAnsweredError,
  QuestionUnansweredError,
} from '../protocol';
import type { ElicitOptions, InboxReason, UnansweredPolicy, ElicitationHooks, ElicitationQuestion } from '../model';
import { runMovedHooks } from './hooks';
import { ttlOf } from './ttl';
import { policyFor } from './unanswered-policy';

export { policyFor, unansweredConfigProblem } from './unanswered-policy';
import type { Asker, ElicitParams, PersistentAsker, QuestionOrigin, RawAnswer } from './types';

interface PolicySettings {
  unanswered?: UnansweredPolicy;
  questions?: PersistentAsker;
  hooks?: ElicitationHooks;
}

/** What a 2026-07-28 request's state keeps for a question under the policy, under `inbox-<key>`. */
interface Marker {
  questionId: string;
  /** Who answered, once one did: the client, or the inbox (then its answer travels on here). */
  by?: 'client' | 'inbox';
  answer?: RawAnswer;
}

/** The policy one form question follows on this asker, or undefined when it asks as it always did. */
export function unansweredRoute(
  settings: PolicySettings,
  asker: Asker,
  options: ElicitOptions,
  question: () => ElicitationQuestion,
): UnansweredRoute | undefined {
  const policy = policyFor(settings.unanswered, options.unanswered);
  if (!policy || !asker.route || (options.mode ?? 'form') !== 'form') return undefined;
  // On 2026-07-28 nothing waits for the client: it retries or not, so there is nothing to fail early.
  if (policy.then === 'fail')
    return asker.route === 'rounds' ? undefined : new UnansweredRoute(policy, asker, undefined, settings.hooks, question);
  if (!settings.questions)
    throw new InvalidInputError(
      "unanswered: then 'inbox' needs persistent questions: set `elicitation: { enabled: true, persistent: true }`",
    );
  // An anonymous caller has no inbox: the client alone is asked, as without the policy.
  if (!settings.questions.subject) return undefined;
  return new UnansweredRoute(policy, asker, settings.questions, settings.hooks, question);
}

class UnansweredRoute {
  /** Who answered, once ask() resolved. */
  answeredIn: 'client' | 'inbox' = 'client';
  private inboxKey?: string;

  constructor(
    readonly policy: UnansweredPolicy,
    private readonly asker: Asker,
    private readonly inbox: PersistentAsker | undefined,
    private readonly hooks: ElicitationHooks | undefined,
    private readonly question: () => ElicitationQuestion,
  ) {}

  /** An answer a 2026-07-28 state brought for the key: the inbox's, taken in an earlier round. */
  known(key: string): { replayed: boolean } | undefined {
    return this.marker(key)?.by === 'inbox' ? { replayed: true } : undefined;
  }

  async ask(key: string, params: ElicitParams, options: ElicitOptions): Promise<RawAnswer> {
    if (this.asker.route === 'rounds') return this.acrossRounds(key, params, options);
    const ttl = ttlOf(options);
    if (this.asker.route === 'fallback' || !this.asker.canShow?.('form')) {
      if (this.policy.then === 'fail')
        throw new ElicitationNotSupportedError(
          "This client cannot show forms (it declared no elicitation capability), and elicitation.unanswered says 'fail'.",
        );
      return this.toInbox(params, options, 'client-cannot-show-forms', ttl);
    }
    // The next call of a question already in the inbox goes there at once: its answer may be waiting.
    if (this.inbox && (await this.inbox.find(await this.keyOf()))) return this.toInbox(params, options, 'client-never-answered', ttl);
    const moveAt = Math.min(this.policy.afterMs, ttl);
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(new QuestionUnansweredError(moveAt)), moveAt);
    const started = Date.now();
    try {
      return await this.asker.ask(key, params, options, stop.signal);
    } catch (error) {
      if (!stop.signal.aborted || error !== stop.signal.reason) throw error;
      if (!this.inbox) throw error;
      return this.toInbox(params, options, 'client-never-answered', ttl - (Date.now() - started));
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * 2026-07-28: the first round files the question in the inbox too. The client's retry claims it (the inbox's answer
   * route takes the same token), so the tool sees one answer, once; the state remembers who answered for later rounds.
   */
  private async acrossRounds(key: string, params: ElicitParams, options: ElicitOptions): Promise<RawAnswer> {
    const inbox = this.inbox!;
    const marker = this.marker(key);
    const settle = (m: Marker) => this.asker.remember?.(`inbox-${key}`, m as unknown as RawAnswer);
    if (marker?.by === 'inbox' && marker.answer) return this.fromInbox(marker, settle);
    if (marker?.by === 'client') {
      settle(marker);
      return this.asker.ask(key, params, options);
    }
    if (!this.asker.canShow?.('form')) {
      // Nobody can answer in the client: the request waits for the inbox, as a persistent question does.
      const answer = await this.toInbox(params, options, 'client-cannot-show-forms', ttlOf(options));
      const id = (await inbox.find(await this.keyOf())) ?? '';
      return this.fromInbox({ questionId: id, answer }, settle);
    }
    if (this.asker.known?.(key)) {
      const id = marker?.questionId ?? (await inbox.find(await this.keyOf()));
      // Nothing was filed for it (a state from before the policy): the client's answer, as always.
      if (!id) return this.asker.ask(key, params, options);
      const claim = await inbox.claim(id);
      if (claim === 'gone') throw new QuestionAlreadyAnsweredError();
      if (claim === 'claimed') {
        settle({ questionId: id, by: 'client' });
        return this.asker.ask(key, params, options);
      }
      return this.fromInbox({ questionId: id, answer: claim }, settle);
    }
    const filed = await this.file(await this.keyOf(), params, this.origin('filed-with-round'));
    if (filed.answer) return this.fromInbox({ questionId: filed.id, answer: filed.answer }, settle);
    if (filed.created) await runMovedHooks(this.hooks, { ...this.question(), reason: 'filed-with-round', questionId: filed.id });
    settle({ questionId: filed.id });
    return this.asker.ask(key, params, options);
  }

  private fromInbox(marker: Marker, settle: (m: Marker) => void): RawAnswer {
    settle({ ...marker, by: 'inbox' });
    this.answeredIn = 'inbox';
    return marker.answer!;
  }

  /** Files the question in the caller's inbox (once per key) and waits up to what is left of the call's ttl. */
  private async toInbox(params: ElicitParams, options: ElicitOptions, reason: InboxReason, waitMs: number): Promise<RawAnswer> {
    const inbox = this.inbox!;
    const from = this.origin(reason);
    const key = await this.keyOf();
    const filed = await this.file(key, params, from);
    this.answeredIn = 'inbox';
    if (filed.answer) return filed.answer;
    if (filed.created) await runMovedHooks(this.hooks, { ...this.question(), reason, questionId: filed.id });
    try {
      const { to, quorum, declines } = this.policy;
      return await inbox.ask(params, { ...options, to, quorum, declines, ttl: Math.max(1, waitMs), persist: { key } }, from);
    } catch (error) {
      if (error instanceof Error && error.name === 'QuestionPendingError')
        throw new InboxPendingError(reason, filed.id, this.policy.afterMs);
      throw error;
    }
  }

  /** Files the question under its key without waiting: in the caller's inbox, or for the policy's addressees (`to`). */
  private file(key: string, params: ElicitParams, from: QuestionOrigin): Promise<{ id: string; created: boolean; answer?: RawAnswer }> {
    const { to, quorum, declines } = this.policy;
    return this.inbox!.file(key, params, from, undefined, to ? { to, quorum, declines } : undefined);
  }

  /** Where the question came from; `afterMs` with it where the client had (or has) that long first. */
  private origin(reason: InboxReason): QuestionOrigin {
    const from: QuestionOrigin = { tool: this.question().tool, reason };
    return reason === 'client-never-answered' || reason === 'filed-with-round' ? { ...from, afterMs: this.policy.afterMs } : from;
  }

  private marker(key: string): Marker | undefined {
    const raw = this.asker.recall?.(`inbox-${key}`) as Partial<Marker> | undefined;
    return raw && typeof raw.questionId === 'string' ? (raw as Marker) : undefined;
  }

  /**
   * The inbox key, derived as a `persist.key` would be chosen: the same tool asking the same question (its key in the
   * run, message and form) as the same caller finds the same inbox question, on the next call too.
   */
  private async keyOf(): Promise<string> {
    if (this.inboxKey) return this.inboxKey;
    const q = this.question();
    const digest = toBase64Url(await sha256(canonicalJson([q.tool, q.key, q.message, q.requestedSchema ?? null])));
    return (this.inboxKey = `unanswered-${digest}`);
  }
}
