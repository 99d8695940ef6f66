// What a tool call ends with under the unanswered-question policy, in words the model can act on.
import { PublicMcpError, QuestionPendingError } from '../protocol';
import type { InboxReason } from '../server';

/** The `_meta` key of a tool result whose question is in the caller's inbox. */
export const INBOX_META = 'parley/inbox';

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** The call ended before anyone answered in the inbox; the next call that asks the same question gets the answer. */
export class InboxPendingError extends QuestionPendingError {
  constructor(
    readonly reason: InboxReason,
    readonly questionId: string,
    afterMs: number,
  ) {
    super(questionId);
    const why =
      reason === 'client-cannot-show-forms'
        ? 'This client cannot show forms'
        : `The client did not answer this question within ${seconds(afterMs)}`;
    this.message = `${why}, so it was put in the person's inbox, where nobody has answered it yet. Ask the person to answer it in their inbox, then call this tool again later with the same arguments: that call gets their answer.`;
    this.meta = { [INBOX_META]: { questionId, reason, next: 'call-again-later' } };
  }
}

/** On 2026-07-28: the inbox answered this question and its answer went to another call, so this retry's is refused. */
export class QuestionAlreadyAnsweredError extends PublicMcpError {
  static readonly code = 'QUESTION_ALREADY_ANSWERED';
  readonly statusCode = 409;
  constructor() {
    super(
      "This question was already answered in the person's inbox, and that answer went to another call of this tool. The answer sent with this retry was not used, so nothing was done twice. Call the tool again only if something is still to do.",
      QuestionAlreadyAnsweredError.code,
    );
    this.name = 'QuestionAlreadyAnsweredError';
    this.meta = { [INBOX_META]: { reason: 'already-answered', next: 'nothing-to-do' } };
  }
}

/** Before 2026-07-28, with `then: 'fail'`: the client did not answer within `afterMs`. */
export class QuestionUnansweredError extends PublicMcpError {
  static readonly code = 'QUESTION_UNANSWERED';
  constructor(afterMs: number) {
    super(
      `The client did not answer this question within ${seconds(afterMs)}, so the call stopped asking (elicitation.unanswered says 'fail').`,
      QuestionUnansweredError.code,
    );
    this.name = 'QuestionUnansweredError';
  }
}
