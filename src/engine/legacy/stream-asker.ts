// Before 2026-07-28: elicit(), sample() and listRoots() send their request on the call's stream and wait for the client's answer.
import { ElicitationNotSupportedError, ElicitationTimeoutError, PublicMcpError, McpWireError } from '../../protocol';
import type { ElicitOptions } from '../../model';
import type { PendingQuestions } from './pending';
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

/** Why a call's signal fired: the server's reason (a wire or public error) as it is, else the client cancelled. */
function endedBy(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof McpWireError || reason instanceof PublicMcpError
    ? reason
    : new PublicMcpError('The call was cancelled', 'CANCELLED');
}

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

  /** `stop` ends the wait early (the unanswered-question policy): the client is told the request is cancelled. */
  async ask(_key: string, params: ElicitParams, options: ElicitOptions, stop?: AbortSignal): Promise<RawAnswer> {
    const mode = params.mode === 'url' ? 'url' : 'form';
    if (!this.canShow(mode)) throw new ElicitationNotSupportedError(`This client does not support ${mode}-mode elicitation`);
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

  /** Records the request as pending, sends it on the stream, and waits for its answer, the ttl or the call's end. */
  private async exchange(
    method: string,
    params: ElicitParams | Record<string, unknown>,
    ttl: number,
    timedOut: string,
    stop?: AbortSignal,
  ): Promise<RawAnswer> {
    if (this.call.pending.unavailable) throw new ElicitationNotSupportedError(this.call.pending.unavailable);
    const id = crypto.randomUUID();
    const asking = { sessionId: this.call.sessionId, caller: this.call.caller };
    const question = await this.call.pending.open(asking, id, params, ttl, this.call.signal);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    let onStop: (() => void) | undefined;
    try {
      // The call may have ended while the question was being kept (another question of the call refused at a limit):
      // then it is never sent.
      if (this.call.signal.aborted) throw endedBy(this.call.signal);
      this.call.send({ jsonrpc: '2.0', id, method, params });
      const ended = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ElicitationTimeoutError(timedOut)), ttl);
        // The server ends a call with a reason that says why (its session ended, the server shuts down); a client's
        // cancellation carries none.
        onAbort = () => reject(endedBy(this.call.signal));
        this.call.signal.addEventListener('abort', onAbort, { once: true });
        onStop = () => {
          // The client is told, so a form it shows late can go away; an answer it sends anyway finds no question.
          this.call.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'unanswered' } });
          reject(stop!.reason);
        };
        if (stop?.aborted) onStop();
        else stop?.addEventListener('abort', onStop, { once: true });
      });
      return await Promise.race([question.answer, ended]);
    } finally {
      clearTimeout(timer);
      if (onAbort) this.call.signal.removeEventListener('abort', onAbort);
      if (onStop) stop?.removeEventListener('abort', onStop);
      void question.close(); // the answer goes on at once; the store's clean-up follows
    }
  }
}
