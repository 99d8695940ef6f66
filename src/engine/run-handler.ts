// Running one handler (tool, prompt or resource) with its request attached, until it returns or suspends on a question.
import { ElicitRun, type Asker } from '../elicitation';
import type { ToolTrace, TurnEnd } from '../runtime';
import { attachRequest, type GrantRule, type RequestContext, type RequestScope } from '../model';
import type { ParleyServer } from './server';

type Run<T> = { kind: 'done'; value: T } | { kind: 'suspended' };

/**
 * A server's wait for the end of the turn, shared by every run that suspends before it ends: questions asked in
 * parallel (Promise.all of elicit and sample) all join the round before it goes out.
 */
export function createSettler(turnEnd: TurnEnd): () => Promise<void> {
  let next: Promise<void> | undefined;
  return () =>
    (next ??= new Promise<void>((resolve) =>
      turnEnd(() => {
        next = undefined;
        resolve();
      }),
    ));
}

/** Which handler runs for which request: `name` is the tool, prompt or resource URI the hooks see as the asker; `asker` is how its questions travel. */
interface HandlerCall {
  name: string;
  scope: RequestScope;
  asker: Asker;
  trace?: ToolTrace;
  /** The tool's standing-approval rule and this call's arguments, when it offers one. */
  grant?: { tool: string; rule: GrantRule; args: Record<string, unknown> } | undefined;
}

/**
 * Runs `exec` on `ctx` with the call's request attached. Not async (its callers await it): an async function returning
 * another promise would cost every call a promise and two ticks.
 */
export function runHandler<C extends RequestContext, T>(
  server: ParleyServer,
  { name, scope, asker, trace, grant }: HandlerCall,
  ctx: C,
  exec: (ctx: C) => T | Promise<T>,
): Promise<Run<T>> {
  const questions = server.questions?.forCall(scope.auth, scope.signal, {
    onWaiting: (message) => scope.notifier.waiting?.(message),
    ...(trace ? { trace } : {}),
    ...(scope.client ? { client: scope.client } : {}),
    ...(grant ? { grant } : {}),
    ...(scope.keepAlive ? { keepAlive: scope.keepAlive } : {}),
  });
  const run = new ElicitRun(server.elicitSettings, asker, { tool: name, auth: scope.auth, trace, questions });
  attachRequest(ctx, scope, run);
  // Fast path: an asker whose questions never end the run leaves nothing to race.
  if (!asker.onSuspend) return started(exec, ctx).then((value): Run<T> => ({ kind: 'done', value }));
  return new Promise((resolve, reject) => {
    let asked = false;
    asker.onSuspend?.(() => {
      if (asked) return;
      asked = true;
      void server.settle().then(() => resolve({ kind: 'suspended' }));
    });
    // Started once the suspension is watched: a question asked at once still suspends the run.
    started(exec, ctx).then(
      (value) => asked || resolve({ kind: 'done', value }),
      (error: unknown) => asked || reject(error), // once suspended, the abandoned run may still fail: nobody waits for it
    );
  });
}

/**
 * `exec(ctx)` run now, as a promise: a synchronous throw rejects it. No tick before the handler starts (its caller is
 * already in a microtask of the request), and a handler's value is taken as it is.
 */
function started<C, T>(exec: (ctx: C) => T | Promise<T>, ctx: C): Promise<T> {
  try {
    return Promise.resolve(exec(ctx));
  } catch (error) {
    return Promise.reject(error);
  }
}
