// Before 2026-07-28: elicit() sends elicitation/create on the call's stream and waits up to ttl for the client's answer.
import { ElicitationNotSupportedError, ElicitationTimeoutError, InvalidInputError, PublicMcpError } from '../server/errors';
import type { ElicitOptions } from '../server/tool-types';
import type { PendingQuestions } from './pending';
import { elicitationModes } from './rounds';
import { ELICIT_METHOD, type Asker, type ElicitParams, type RawAnswer } from './types';

export interface StreamCall {
  sessionId: string;
  /** The capabilities the client declared in initialize. */
  capabilities: Record<string, unknown>;
  pending: PendingQuestions;
  /** Sends a message on the call's own stream. */
  send(message: unknown): void;
  signal: AbortSignal;
}

export const DEFAULT_TTL_MS = 300_000;

/** How long a question waits: the tool's `ttl`, else five minutes. */
export function ttlOf(options: ElicitOptions): number {
  const ttl = options.ttl ?? DEFAULT_TTL_MS;
  if (!(typeof ttl === 'number' && ttl > 0 && Number.isFinite(ttl))) throw new InvalidInputError('ttl must be a positive number of milliseconds');
  return ttl;
}

export class StreamAsker implements Asker {
  constructor(private readonly call: StreamCall) {}

  async ask(_key: string, params: ElicitParams, options: ElicitOptions): Promise<RawAnswer> {
    const mode = params.mode === 'url' ? 'url' : 'form';
    if (!elicitationModes(this.call.capabilities)[mode]) throw new ElicitationNotSupportedError(`This client does not support ${mode}-mode elicitation`);
    if (this.call.pending.unavailable) throw new ElicitationNotSupportedError(this.call.pending.unavailable);
    const ttl = ttlOf(options);
    const elicitId = crypto.randomUUID();
    const question = await this.call.pending.open(this.call.sessionId, elicitId, params, ttl);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    try {
      this.call.send({ jsonrpc: '2.0', id: elicitId, method: ELICIT_METHOD, params });
      const ended = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ElicitationTimeoutError('Elicitation request timed out')), ttl);
        onAbort = () => reject(new PublicMcpError('The call was cancelled', 'CANCELLED'));
        this.call.signal.addEventListener('abort', onAbort, { once: true });
      });
      return await Promise.race([question.answer, ended]);
    } finally {
      clearTimeout(timer);
      if (onAbort) this.call.signal.removeEventListener('abort', onAbort);
      await question.close();
    }
  }
}
