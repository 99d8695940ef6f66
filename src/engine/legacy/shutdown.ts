// Shutting down with older clients' calls in flight: no new calls, waiting questions get a grace period, the rest end
// with a JSON-RPC error that says why. Nothing is cut in silence.
import { pendingOf } from '../pending';
import { RetryLaterError } from '../../protocol';
import type { ParleyServer } from '../server';
import { sessionsOf } from './sessions';

export interface CloseOptions {
  /** How long waiting questions may still be answered before their calls are ended. Default 10 s. */
  graceMs?: number;
}

const closing = new WeakSet<ParleyServer>();

export const SHUTTING_DOWN = 'The server is shutting down: call again, and another instance (or this one, once restarted) serves you';

/**
 * How long a refused client waits before it calls again: behind a balancer the next request reaches another instance
 * at once; a lone instance takes a few seconds to restart, and the client tries again then.
 */
export const SHUTDOWN_RETRY_AFTER_S = 1;

/** The refusal of a new call or session while the server shuts down (503, with Retry-After). */
export const shuttingDown = () => new RetryLaterError('SHUTTING_DOWN', SHUTTING_DOWN, SHUTDOWN_RETRY_AFTER_S);

export const isClosing = (server: ParleyServer): boolean => closing.has(server);

/**
 * Stops taking new calls and sessions of older clients, waits up to `graceMs` for the questions waiting in this process
 * to be answered, then ends every call still running with `SHUTTING_DOWN` and closes the elicitation store.
 */
export async function closeServer(server: ParleyServer, { graceMs = 10_000 }: CloseOptions = {}): Promise<void> {
  closing.add(server);
  const pending = pendingOf(server);
  const deadline = Date.now() + graceMs;
  while (pending.size > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, deadline - Date.now())));
  const error = shuttingDown();
  sessionsOf(server).endAll(error);
  pending.failAll(error);
  // The calls' last events go out before the store (and the process) goes.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await server.elicitationStore?.backend.close();
}
