// ToolContext: the base class of every tool. execute() does the work; elicit() asks the person mid-call.
import type { ElicitRun } from '../elicitation/elicit';
import { PublicMcpError } from './errors';
import type { AuthInfo, ElicitOptions, ElicitResult, Infer, SchemaInput } from './tool-types';

const RUN = Symbol('parley.run');

export abstract class ToolContext<In = any, Out = unknown> {
  /** The verified caller of this call. */
  declare readonly auth: AuthInfo;
  /** Fires when the call is cancelled: the client closed the stream or sent notifications/cancelled. */
  declare readonly signal: AbortSignal;
  declare private [RUN]: ElicitRun;

  abstract execute(input: In): Promise<Out> | Out;

  /**
   * Asks the person and resolves with their answer, typed from the schema.
   * @example const answer = await this.elicit(`Close ticket ${id}?`, z.object({ confirm: z.boolean() }));
   */
  protected elicit<S extends SchemaInput>(message: string, requestedSchema: S, options?: ElicitOptions): Promise<ElicitResult<Infer<S>>> {
    return this[RUN].elicit(message, requestedSchema, options) as Promise<ElicitResult<Infer<S>>>;
  }

  /** Ends the call with an error. A PublicMcpError's message is shown to the caller; any other error is hidden. */
  protected fail(error: Error | string): never {
    throw typeof error === 'string' ? new PublicMcpError(error) : error;
  }
}

/** Gives a freshly constructed context its call: caller, signal and elicitation run. */
export function attachCall(ctx: ToolContext, call: { auth: AuthInfo; signal: AbortSignal; run: ElicitRun }): void {
  Object.defineProperties(ctx, {
    auth: { value: call.auth, enumerable: true },
    signal: { value: call.signal, enumerable: true },
    [RUN]: { value: call.run },
  });
}
