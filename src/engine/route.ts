// How a request's questions reach the person, whatever its method: input_required rounds (2026-07-28), nobody (a
// request that named no version), or an asker the transport gives (an older client's stream, connect()'s handler).
import { unversionedAsker, type Asker } from '../elicitation';
import type { RequestScope } from '../model';
import { firstRound, isRetry, withRounds, type RoundOutcome } from './round-call';
import type { ParleyServer } from './server';

export type Route = { via: 'rounds'; params: Record<string, unknown> } | { via: 'nobody' } | { via: 'asker'; asker: Asker };

/** What a round's state is bound to: the method, and the tool, prompt or URI with its arguments. */
interface Target {
  method: string;
  name: string;
  args: unknown;
}

/**
 * Runs a handler with its questions asked the route's way; a run that suspends answers input_required. Not async: on
 * every call's path, an async function returning another's promise would cost the call a promise and three ticks.
 */
export function routed(
  server: ParleyServer,
  scope: RequestScope,
  route: Route,
  target: Target,
  run: (asker: Asker) => Promise<RoundOutcome>,
): Promise<Record<string, unknown>> {
  if (route.via === 'rounds') {
    if (!isRetry(route.params)) return firstRound(server, scope, target, run);
    return withRounds(server, { ...target, params: route.params, auth: scope.auth, capabilities: scope.capabilities }, run);
  }
  return run(route.via === 'asker' ? route.asker : unversionedAsker).then((outcome) => (outcome.kind === 'result' ? outcome.result : {}));
}
