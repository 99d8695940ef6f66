// What the inbox's routes and event stream read: the caller's questions, the store that answers them, people auth.
import type { RequestScope } from '../model';
import type { LoopbackTokenAuth } from './people';
import type { PersonSignIn } from '../auth';
import type { ActionLinks } from './action-links';
import type { AnswerOutcome, QuestionStore, QuestionView, StoredAnswer } from './question-store';

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
  view(subject: string): Promise<InboxView>;
  /** Sends the nudges kept in the store that are due (an edge runtime's, which has no timer); resolves with how many. */
  sendDueNudges(): Promise<number>;
  /** Takes the person's answer to a question of theirs (a task's question goes to its task). */
  answer(subject: string, id: string, answer: StoredAnswer, keepAlive?: RequestScope['keepAlive']): Promise<AnswerOutcome>;
}
