// Running one handler (tool, prompt or resource) with its request attached, until it returns or suspends on a question.
import { ElicitRun } from '../elicitation/elicit';
import type { Asker } from '../elicitation/types';
import { ErrorCode, McpWireError } from '../protocol';
import { atTurnEnd } from '../runtime';
import type { ListChanges } from './changes';
import { InvalidInputError, PublicMcpError } from './errors';
import type { ParleyServer } from './instance';
import type { Notifier } from './notifier';
import { attachRequest, type RequestContext } from './request-context';
import type { AuthInfo } from './tool-types';
import type { RequestTrace, ToolTrace } from '../runtime/telemetry';

export interface HandlerScope {
  auth: AuthInfo;
  signal: AbortSignal;
  capabilities: Record<string, unknown>;
  asker: Asker;
  notifier: Notifier;
  changes: ListChanges;
  /** Resolves when the run asked a question that ends it (an input_required round). */
  suspended?: Promise<void>;
  /** The request's span, when tracing is on. */
  trace?: RequestTrace;
}

export type Run<T> = { kind: 'done'; value: T } | { kind: 'suspended' };

/** Questions asked in parallel (Promise.all of elicit and sample) all join the round before it goes out. */
let next: Promise<void> | undefined; // one for every run that suspends before the turn ends
const settle = () =>
  (next ??= new Promise<void>((resolve) =>
    atTurnEnd(() => {
      next = undefined;
      resolve();
    }),
  ));

/** `name` is the tool, prompt or resource URI the hooks see as the asker. */
export async function runHandler<C extends RequestContext, T>(server: ParleyServer, name: string, ctx: C, scope: HandlerScope, exec: (ctx: C) => T | Promise<T>, trace?: ToolTrace): Promise<Run<T>> {
  const settings = { enabled: server.config.elicitation.enabled, production: server.production, hooks: server.config.elicitation.hooks, questions: server.questions?.forCall(scope.auth, scope.signal), unanswered: server.config.elicitation.unanswered };
  const run = new ElicitRun(settings, scope.asker, { tool: name, auth: scope.auth, trace });
  attachRequest(ctx, scope, run);
  const done = Promise.resolve().then(() => exec(ctx));
  const suspended = scope.suspended;
  // Fast path: with no round to wait for, there is nothing to race.
  if (!suspended) return done.then((value): Run<T> => ({ kind: 'done', value }));
  return new Promise((resolve, reject) => {
    let asked = false;
    done.then(
      (value) => asked || resolve({ kind: 'done', value }),
      (error: unknown) => asked || reject(error), // once suspended, the abandoned run may still fail: nobody waits for it
    );
    void suspended.then(async () => {
      asked = true;
      await settle();
      resolve({ kind: 'suspended' });
    });
  });
}

/**
 * A prompt's or resource's failure as a JSON-RPC error (they have no isError result): a PublicMcpError keeps its
 * message, bad input is -32602; anything else is rethrown, and the endpoint hides it behind an error id.
 */
export function asWireError(error: unknown): unknown {
  if (error instanceof McpWireError || !(error instanceof PublicMcpError)) return error;
  const code = error instanceof InvalidInputError ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new McpWireError(code, error.message, { code: error.code });
}
