// Shutting down with calls in flight: no new calls, waiting questions get a grace period, the rest end with a JSON-RPC
// error that says why, and open streams end with their last event. Nothing is cut in silence.
import { RetryLaterError } from '../../protocol';
import type { ParleyServer } from '../server';

export interface CloseOptions {
  /** How long waiting questions may still be answered before their calls are ended. Default 10 s. */
  graceMs?: number;
}

const SHUTTING_DOWN = 'The server is shutting down: call again, and another instance (or this one, once restarted) serves you';

/**
 * How long a refused client waits before it calls again: behind a balancer the next request reaches another instance
 * at once; a lone instance takes a few seconds to restart, and the client tries again then.
 */
const SHUTDOWN_RETRY_AFTER_S = 1;

/** The refusal of a new call or session while the server shuts down (503, with Retry-After). */
export const shuttingDown = () => new RetryLaterError('SHUTTING_DOWN', SHUTTING_DOWN, SHUTDOWN_RETRY_AFTER_S);

export const isClosing = (server: ParleyServer): boolean => server.legacy.closing;

/**
 * Stops taking new calls and sessions, waits up to `graceMs` for the questions waiting in this process to be answered
 * and their calls to finish, then ends every call still running with `SHUTTING_DOWN`; meanwhile the stretches of task
 * work running here get the same grace to reach a question or their end, and those left are handed over to another
 * instance (never failed). Then the elicitation store closes.
 */
export async function closeServer(server: ParleyServer, { graceMs = 10_000 }: CloseOptions = {}): Promise<void> {
  const { legacy } = server;
  legacy.closing = true;
  const tasks = server.tasks?.close(graceMs);
  // With questions waiting, whichever comes first: they are answered and the calls end, or the grace runs out. With
  // none, a running call has nothing to wait for: it ends now.
  if (legacy.pending.size > 0) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const drained = legacy.pending.idle().then(() => legacy.sessions.idle());
    await Promise.race([drained, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
  }
  const error = shuttingDown();
  // Streams end cleanly, never cut: a listen stream with its closing result, a session's streams once they are sent.
  server.listens.endAll();
  legacy.sessions.endAll(error);
  legacy.pending.failAll(error);
  // The calls' last events go out, and the task work left here is handed over, before the store (and the process) goes.
  await Promise.all([tasks, new Promise((resolve) => setTimeout(resolve, 0))]);
  await server.elicitationStore?.backend.close();
}
