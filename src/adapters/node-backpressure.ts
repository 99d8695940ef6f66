// Backpressure on Node's response writes: a client that does not read costs a bounded amount of memory.
import type { ServerResponse } from 'node:http';

/**
 * Bytes an event stream may have written and not yet taken by its client. Past it, a source that pushes its events
 * (a tool's progress, a subscription's notifications) has outrun the client for good: the connection is closed as if
 * the client had left, rather than letting the events pile up in memory.
 */
export const MAX_UNREAD_BYTES = 1 << 20;

/** Resolves once `outgoing` takes more ('drain'), or once it never will ('close', 'error'); at once if it is gone. */
export function writable(outgoing: ServerResponse): Promise<void> {
  if (outgoing.destroyed || outgoing.closed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done).off('close', done).off('error', done);
      resolve();
    };
    outgoing.once('drain', done).once('close', done).once('error', done);
  });
}
