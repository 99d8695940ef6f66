// The errors of persistent questions: a call that stopped waiting, a call another took over from, a bad store.
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

/** `elicitation.persistent` cannot be served as configured; thrown at startup. */
export class InvalidQuestionStoreError extends Error {
  static readonly code = 'INVALID_QUESTION_STORE';
  readonly code = InvalidQuestionStoreError.code;
  constructor(detail: string) {
    super(`Invalid elicitation.persistent: ${detail}`);
    this.name = 'InvalidQuestionStoreError';
  }
}

export const EDGE_REFUSAL =
  'it is not available on an edge runtime (redis needs a TCP connection, sqlite a local file, and memory ends with the isolate); run the server on Node.js to use persistent questions';
