// What the inbox's routes and event stream read: the caller's questions, the store that answers them, people auth.
import type { LoopbackTokenAuth } from './people';
import type { PersonSignIn } from '../auth';
import type { ActionLinks } from './action-links';
import type { AnswerOutcome, QuestionStore, QuestionView, StoredAnswer, StoredQuestion } from './question-store';
import type { DecisionChannel, DecisionLog } from './decision-log';
import type { Grants } from './grants';
import type { RequestScope } from '../model';
import type { InboxPerson } from './addressees';

/** How an answer reached the service: the platform's waitUntil, the channel and the client's address (for the log). */
export interface AnswerVia {
  keepAlive?: RequestScope['keepAlive'];
  channel: DecisionChannel;
  address?: string;
  /** The person accepts the same for the question's standing approval (its `from.grant`). */
  grant?: boolean;
}

/**
 * An answer's outcome, with the standing approval it gave. An addressed question's decision that did not decide it
 * yet says how many accepts it has of those it needs (`decided`); a person who decided before, or who is not one of
 * its addressees, is refused.
 */
export type Answered =
  | AnswerOutcome
  | { ok: true; waiting: boolean; task?: true; grant: { id: string; expiresAt: number } }
  | { ok: true; waiting: boolean; decided: { accepts: number; quorum: number } }
  | { ok: false; reason: 'already-decided' | 'not-addressed' };

export interface InboxView {
  signedInAs: string;
  questions: QuestionView[];
}

export interface Inbox {
  readonly store: QuestionStore;
  readonly people: LoopbackTokenAuth | undefined;
  /** OpenID Connect sign-in for people (`http.auth.oidc`), beside one-time codes. */
  readonly signIn?: PersonSignIn;
  /** The nudge's action links, when its webhook sends them. */
  readonly actionLinks?: ActionLinks;
  /** The decision log, undefined when `persistent.log` is off. */
  readonly log?: DecisionLog;
  /**
   * The questions a person answers: their subject's, and those addressed to them. `seen`: the channel (and address)
   * they see them through, logged as a view; none for a read of the server's own.
   */
  view(person: InboxPerson, seen?: { channel: DecisionChannel; address?: string }): Promise<InboxView>;
  /** Sends the nudges kept in the store that are due (an edge runtime's, which has no timer); resolves with how many. */
  sendDueNudges(keepAlive?: RequestScope['keepAlive']): Promise<number>;
  /** Takes the person's answer to a question of theirs or addressed to them (a task's question goes to its task). */
  answer(person: InboxPerson, id: string, answer: StoredAnswer, via: AnswerVia): Promise<Answered>;
  /** The question `id` as a person finds it, with its subject (owner); `answers`: false when it is addressed to others. */
  locate(person: InboxPerson, id: string): Promise<{ owner: string; question: StoredQuestion; answers: boolean } | undefined>;
  /** Standing approvals: listed and revoked by their person. */
  readonly grants?: Grants;
}
