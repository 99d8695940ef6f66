// Before 2026-07-28: elicit(), sample() and listRoots() send their request on the call's stream and wait for the client's answer.
import { ElicitationNotSupportedError, ElicitationTimeoutError, PublicMcpError } from '../../protocol';
import type { ElicitOptions } from '../../model';
import { endedBy, type PendingQuestions } from './pending';
import {
  DEFAULT_TTL_MS,
  elicitationModes,
  missingFor,
  ELICIT_METHOD,
  ttlOf,
  type Asker,
  type ElicitParams,
  type OtherInputMethod,
  type RawAnswer,
} from '../../elicitation';

interface StreamCall {
  sessionId: string;
  /** callerKey() of the session's owner: elicitation.pending counts questions per caller too. */
  caller: string;
  /** The capabilities the client declared in initialize. */
  capabilities: Record<string, unknown>;
  pending: PendingQuestions;
  /** Sends a message on the call's own stream. */
  send(message: unknown): void;
  signal: AbortSignal;
}

export class StreamAsker implements Asker {
  readonly route = 'stream';
  constructor(private readonly call: StreamCall) {}

  canShow(mode: 'form' | 'url'): boolean {
    return elicitationModes(this.call.capabilities)[mode];
  }

  /**
   * `stop` ends the wait early (the unanswered-question policy): the client is told the request is cancelled. Not async:
   * the wait's promise is exchange()'s own, not another one resolved with it (a waiting question holds fewer objects).
   */
  ask(_key: string, params: ElicitParams, options: ElicitOptions, stop?: AbortSignal): Promise<RawAnswer> {
    const mode = params.mode === 'url' ? 'url' : 'form';
    if (!this.canShow(mode))
      return Promise.reject(new ElicitationNotSupportedError(`This client does not support ${mode}-mode elicitation`));
    return this.exchange(ELICIT_METHOD, params, ttlOf(options), 'Elicitation request timed out', stop);
  }

  /** sampling/createMessage or roots/list, to a client that declared it; the answer waits as long as a question's default ttl. */
  async request(_key: string, method: OtherInputMethod, params: Record<string, unknown>): Promise<RawAnswer> {
    const lacking = missingFor(method, params, this.call.capabilities);
    if (lacking) throw new PublicMcpError(lacking.message, 'INPUT_NOT_SUPPORTED');
    const answer = await this.exchange(method, params, DEFAULT_TTL_MS, `The client did not answer ${method} in time`);
    const error = answer.error as { code?: unknown; message?: unknown } | undefined;
    if (error) throw new PublicMcpError(`The client answered ${method} with an error (${String(error.code)}: ${String(error.message)})`);
    return answer;
  }

  /**
   * Records the request as pending, sends it on the stream, and waits for its answer, the ttl or the call's end: one
   * promise, the question's answer, which each of them settles (pending.open listens for the call's end).
   */
  private async exchange(
    method: string,
    params: ElicitParams | Record<string, unknown>,
    ttl: number,
    timedOut: string,
    stop?: AbortSignal,
  ): Promise<RawAnswer> {
    const { pending, signal } = this.call;
    if (pending.unavailable) throw new ElicitationNotSupportedError(pending.unavailable);
    const id = crypto.randomUUID();
    const question = await pending.open({ sessionId: this.call.sessionId, caller: this.call.caller }, id, params, ttl, signal);
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The client is told, so a form it shows late can go away; an answer it sends anyway finds no question.
    const onStop =
      stop &&
      (() => {
        this.call.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'unanswered' } });
        question.fail(stop.reason as Error);
      });
    try {
      // The call may have ended while the question was being kept (another question of the call refused at a limit):
      // then it is never sent. The server ends a call with a reason that says why (its session ended, the server shuts
      // down); a client's cancellation carries none.
      if (signal.aborted) throw endedBy(signal);
      this.call.send({ jsonrpc: '2.0', id, method, params });
      timer = setTimeout(() => question.fail(new ElicitationTimeoutError(timedOut)), ttl);
      if (onStop) {
        if (stop.aborted) onStop();
        else stop.addEventListener('abort', onStop, { once: true });
      }
      return await question.answer;
    } finally {
      clearTimeout(timer);
      if (onStop) stop?.removeEventListener('abort', onStop);
      void question.close(); // the answer goes on at once; the store's clean-up follows
    }
  }
}
