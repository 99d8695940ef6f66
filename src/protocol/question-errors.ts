// The errors of persistent questions: a call that stopped waiting, a call another took over from, a bad store, and
// what a call ends with under the unanswered-question policy, in words the model can act on.
import { PublicMcpError } from './framework-errors';

/** The call stopped waiting before anyone answered; the answer waits for the next call that asks the same key. */
export class QuestionPendingError extends PublicMcpError {
  static readonly code = 'QUESTION_PENDING';
  readonly statusCode = 408;
  constructor(readonly key: string) {
    super(
      `The question "${key}" has no answer yet. Answer it in the inbox, then call again: the next call that asks "${key}" gets the answer.`,
      QuestionPendingError.code,
    );
    this.name = 'QuestionPendingError';
  }
}

/** A newer call of the same subject asked the same key; that call waits for the answer instead of this one. */
export class QuestionSupersededError extends PublicMcpError {
  static readonly code = 'QUESTION_SUPERSEDED';
  readonly statusCode = 409;
  constructor(readonly key: string) {
    super(`A newer call asked the question "${key}" and waits for its answer instead of this call.`, QuestionSupersededError.code);
    this.name = 'QuestionSupersededError';
  }
}

/** Why a question is in the inbox (the inbox page, the hooks and the webhook say it in these words). */
export type InboxReason = 'persist' | 'client-never-answered' | 'client-cannot-show-forms' | 'filed-with-round' | 'task';

/** The `_meta` key of a tool result whose question is in the caller's inbox. */
const INBOX_META = 'parley/inbox';

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

/** `elicitation.persistent` cannot be served as configured; thrown at startup. */
export class InvalidQuestionStoreError extends Error {
  static readonly code = 'INVALID_QUESTION_STORE';
  readonly code = InvalidQuestionStoreError.code;
  constructor(detail: string) {
    super(`Invalid elicitation.persistent: ${detail}`);
    this.name = 'InvalidQuestionStoreError';
  }
}

/** Why persistent questions can't be kept on an edge runtime that has no distributed store, and what to bind or set. */
export const EDGE_REFUSAL =
  "on an edge runtime they are kept in the elicitation store, and there is none that outlives this isolate: bind the ParleyStore class as PARLEY_STORE in wrangler.toml, export it from the Worker's entry and call enableDurableObjects() from 'parley-mcp/cloudflare'; or set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (or elicitation.redis: { provider: 'upstash' }) and call enableRedisHttp() from 'parley-mcp/redis-http'";
