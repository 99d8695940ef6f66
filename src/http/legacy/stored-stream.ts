// A stream of a call running on another instance, resumed here from the store: the events after Last-Event-ID, then the
// live ones as their instance stores and announces them.
import { KEEPALIVE, KEEPALIVE_MS, sseFrame, type Responder } from '../../protocol';
import type { SessionStream } from '../../engine';
import { openEvent, type StreamPlace } from './stored-events';

/**
 * Without publish/subscribe between processes (SQLite shared by processes), or when the subscription could not be
 * opened (the store refused it for a moment), a reader looks for new events this often.
 */
const POLL_MS = 500;

/** One client connection: the next event number it needs, and how to wake its writer. */
interface Connection {
  next: number;
  closed: boolean;
  /** Set by an announcement that came while the writer was reading: read again before waiting. */
  announced: boolean;
  wake?: () => void;
  unsubscribe?: Promise<() => Promise<void>>;
  /** Set by the first pull: no announcement will come (no publish/subscribe, or the subscription failed), so it polls. */
  polls?: boolean;
}

export class StoredStream implements SessionStream {
  private connection?: Connection;
  private ended = false;

  constructor(
    readonly id: string,
    private readonly place: StreamPlace,
    private readonly hooks: { onSettled(): void; onActivity(): void },
  ) {}

  get isEnded(): boolean {
    return this.ended;
  }

  get isConnected(): boolean {
    return this.connection !== undefined;
  }

  /** Events are sent by the call's own instance, never here. */
  send(): void {
    throw new Error('A stream resumed from the store is written by the instance its call runs on');
  }

  /** The session ended here: the connection closes. The call's instance ends the stream itself. */
  end(): void {
    this.ended = true;
    this.detach();
  }

  detach(): void {
    if (this.connection) this.close(this.connection);
  }

  connect(respond: Responder, after = 0): Response {
    this.detach();
    const connection: Connection = { next: after + 1, closed: false, announced: false };
    this.connection = connection;
    const { backend, channel } = this.place;
    // Subscribed before the first read: an event stored after that read is announced to this connection.
    connection.unsubscribe = backend.subscribe(channel, () => {
      connection.announced = true;
      connection.wake?.();
    });
    connection.unsubscribe.catch(() => {}); // the first pull awaits it, and polls the store if it failed
    return respond.stream({
      pull: (controller) => this.write(connection, controller),
      cancel: () => this.close(connection),
    });
  }

  private close(connection: Connection): void {
    if (connection.closed) return;
    connection.closed = true;
    connection.wake?.();
    void connection.unsubscribe?.then((stop) => stop()).catch(() => {});
    if (this.connection === connection) this.connection = undefined;
  }

  /** Writes the stored events the connection has not had; waits for an announcement (or a keepalive's time) when none. */
  private async write(connection: Connection, controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    try {
      // A subscription that failed costs the announcements, not the stream: its events are read by polling instead.
      connection.polls ??=
        !this.place.backend.supportsPubSub ||
        !(await connection.unsubscribe!.then(
          () => true,
          () => false,
        ));
      for (;;) {
        if (connection.closed) return closeQuietly(controller);
        connection.announced = false;
        const wrote = await this.read(connection, controller);
        if (wrote === 'end') {
          this.ended = true;
          this.close(connection);
          closeQuietly(controller);
          return this.hooks.onSettled();
        }
        if (wrote) return this.hooks.onActivity();
        if (connection.announced) continue;
        if (!(await this.woken(connection))) {
          if (connection.closed) continue;
          // Quiet: the stream is gone when its head is (the session ended or its events expired).
          if ((await this.place.backend.get(this.place.head)) === undefined) {
            this.close(connection);
            return closeQuietly(controller);
          }
          if (connection.polls) continue;
          this.hooks.onActivity();
          return controller.enqueue(KEEPALIVE);
        }
      }
    } catch {
      // The store failed: the client reconnects with its Last-Event-ID and resumes from there.
      this.close(connection);
      closeQuietly(controller);
    }
  }

  /** Enqueues the events from connection.next on while the store has them; 'end' when the stream's end was read. */
  private async read(connection: Connection, controller: ReadableStreamDefaultController<Uint8Array>): Promise<boolean | 'end'> {
    const { backend } = this.place;
    let wrote = false;
    for (;;) {
      const seq = connection.next;
      const text = await backend.get(this.place.event(seq));
      if (connection.closed) return wrote;
      if (text === undefined) {
        // Dropped past the caps: the kept events start later (as in memory, the client gets what is kept).
        const first = Number(await backend.get(this.place.head));
        if (Number.isSafeInteger(first) && first > seq) {
          connection.next = first;
          continue;
        }
        return wrote;
      }
      const event = await openEvent(this.place, text, seq);
      if (!event || event.end) return wrote || 'end';
      controller.enqueue(sseFrame({ id: `${this.id}:${seq}`, data: event.data! }));
      connection.next = seq + 1;
      wrote = true;
    }
  }

  /** Resolves true when an announcement woke it, false after a keepalive's quiet (a poll's, when it polls). */
  private woken(connection: Connection): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(false), connection.polls ? POLL_MS : KEEPALIVE_MS);
      (timer as { unref?: () => void }).unref?.();
      const settle = (woken: boolean) => {
        clearTimeout(timer);
        connection.wake = undefined;
        resolve(woken);
      };
      connection.wake = () => settle(true);
    });
  }
}

function closeQuietly(controller: ReadableStreamDefaultController<Uint8Array>): void {
  try {
    controller.close();
  } catch {
    // already closed by the client
  }
}
