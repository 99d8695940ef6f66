// What the inbox's routes and event stream read: the caller's questions, the store that answers them, people auth.
import type { LoopbackTokenAuth } from './people';
import type { PersonSignIn } from '../auth';
import type { ActionLinks } from './action-links';
import type { AnswerOutcome, QuestionStore, QuestionView, StoredAnswer } from './question-store';
import type { DecisionChannel, DecisionLog } from './decision-log';
import type { Grants } from './grants';
import type { RequestScope } from '../model';

/** How an answer reached the service: the platform's waitUntil, the channel and the client's address (for the log). */
export interface AnswerVia {
  keepAlive?: RequestScope['keepAlive'];
  channel: DecisionChannel;
  address?: string;
  /** The person accepts the same for the question's standing approval (its `from.grant`). */
  grant?: boolean;
}

/** An answer's outcome, with the standing approval it gave. */
export type Answered = AnswerOutcome | { ok: true; waiting: boolean; task?: true; grant: { id: string; expiresAt: number } };

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
  /** `seen`: the channel (and address) a person sees them through, logged as a view; none for a read of the server's own. */
  view(subject: string, seen?: { channel: DecisionChannel; address?: string }): Promise<InboxView>;
  /** Sends the nudges kept in the store that are due (an edge runtime's, which has no timer); resolves with how many. */
  sendDueNudges(): Promise<number>;
  /** Takes the person's answer to a question of theirs (a task's question goes to its task). */
  answer(subject: string, id: string, answer: StoredAnswer, via: AnswerVia): Promise<Answered>;
  /** Standing approvals: listed and revoked by their person. */
  readonly grants?: Grants;
}
