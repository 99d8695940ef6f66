// One subscription's WebSocket to its channel's Durable Object, opened again with backoff whenever it drops (a deploy
// or a restart of the object closes it). What is published while it is down is lost, as with Redis.

/** The parts of a WebSocket a Worker gets from an upgrade response (`response.webSocket`) this uses. */
export interface WorkerSocket {
  accept(): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close' | 'error', listener: () => void): void;
}

interface SocketOptions {
  /** Opens a socket to the channel's object; resolves once the object accepted it. */
  connect(): Promise<WorkerSocket>;
  onMessage(message: string): void;
  /** The socket is open again after a drop. */
  onReopen(): void;
}

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;

/** Resolves once the first socket is open, with a function that ends the subscription for good; rejects when it can't open. */
export async function openSocket(options: SocketOptions): Promise<() => void> {
  let stopped = false;
  let current: WorkerSocket | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const open = async (): Promise<void> => {
    const socket = await options.connect();
    if (stopped) return socket.close(1000, 'unsubscribed');
    current = socket;
    let dropped = false;
    const drop = () => {
      if (dropped || stopped) return;
      dropped = true;
      reopen(FIRST_RETRY_MS);
    };
    socket.addEventListener('message', (event) => {
      if (typeof event.data === 'string') options.onMessage(event.data);
    });
    socket.addEventListener('close', drop);
    socket.addEventListener('error', drop);
    socket.accept();
  };
  const reopen = (waitMs: number) => {
    timer = setTimeout(() => {
      if (stopped) return;
      open().then(
        () => !stopped && options.onReopen(),
        () => reopen(Math.min(waitMs * 2, MAX_RETRY_MS)),
      );
    }, waitMs);
  };
  await open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    try {
      current?.close(1000, 'unsubscribed');
    } catch {
      // already closed
    }
  };
}
