// Closing an ioredis connection (or Cluster) without waiting on a Redis that hangs: QUIT lets the commands already sent
// finish; a Redis that does not acknowledge it in time (stopped, unreachable) has the connection dropped instead.

/** How long a store waits for QUIT when nobody said (elicitation.storeTimeoutMs's default). */
export const CLOSE_WAIT_MS = 5_000;

/** The two methods of ioredis's Redis and Cluster this needs. */
interface Closable {
  quit(): Promise<unknown>;
  disconnect(): void;
}

/** Resolves once the connection is closed: by QUIT within `waitMs`, else (or when QUIT fails) by dropping it. */
export async function quitWithin(connection: Closable, waitMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([connection.quit(), new Promise((_, reject) => (timer = setTimeout(reject, waitMs)))]);
  } catch {
    connection.disconnect(); // not connected, or no answer: stop reconnecting
  } finally {
    clearTimeout(timer);
  }
}
