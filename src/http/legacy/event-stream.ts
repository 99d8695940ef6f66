// One server-sent-events stream of a session: numbered events, kept so a client that lost the connection can resume.
import { KEEPALIVE, KEEPALIVE_MS, sseFrame, type Responder } from '../../protocol';
import type { SessionStream } from '../../engine';

interface Event {
  seq: number;
  data: string;
}

/** One client connection: what it has been sent, and how to wake its writer when there is more. */
interface Connection {
  sent: number;
  closed: boolean;
  wake?: () => void;
}

/** Where a stream's events are kept besides its memory (stored-events.ts's StoredEvents, with a shared store). */
export interface EventKeeper {
  put(seq: number, data: string): void;
  /** No more events after `last`. */
  end(last: number): void;
  /** Resolves once every event given so far is kept. */
  kept(): Promise<void>;
}

/** Events a stream keeps for a client to resume: older ones are dropped, so a stream nobody reads stays small. */
export const MAX_KEPT_EVENTS = 256;

/** Event ids are `<stream id>:<number>`: unique in the session, and they say which stream to replay. */
export function parseEventId(value: string): { streamId: string; seq: number } | undefined {
  const m = /^([A-Za-z0-9_-]{1,64}):(\d{1,9})$/.exec(value);
  return m ? { streamId: m[1]!, seq: Number(m[2]) } : undefined;
}

export class EventStream implements SessionStream {
  private seq = 0;
  /** The kept events, oldest first: events[i] has seq `dropped + i + 1`. */
  private events: Event[] = [];
  private dropped = 0;
  private connection?: Connection;
  private ended = false;

  private readonly onSettled: () => void;
  private readonly onActivity: () => void;
  /** Where the events are kept too when instances share a store, so a reconnect to another one resumes. */
  private readonly stored?: EventKeeper;

  constructor(
    readonly id: string,
    hooks: {
      /** Called when the stream has ended and its last event reached a connection: nothing is left to resume. */
      onSettled?: () => void;
      /** Called on each event or keepalive written to a connection: the client is still there. */
      onActivity?: () => void;
      stored?: EventKeeper;
    } = {},
  ) {
    this.onSettled = hooks.onSettled ?? (() => {});
    this.onActivity = hooks.onActivity ?? (() => {});
    this.stored = hooks.stored;
  }

  /** True once the stream has no more events to come (it may still wait for a client to fetch the last ones). */
  get isEnded(): boolean {
    return this.ended;
  }

  /** True while a client connection is open on the stream. */
  get isConnected(): boolean {
    return this.connection !== undefined;
  }

  /**
   * A response (made by the server's `respond`) carrying the events after `after` (a fresh stream starts with a
   * priming event), then the live ones. The connection writes its own events when woken: on a Worker a stream belongs to the request that opened it, and
   * the events may come from another request's running tool.
   */
  connect(respond: Responder, after?: number): Response {
    this.detach();
    const connection: Connection = { sent: after ?? 0, closed: false };
    this.connection = connection;
    return respond.stream({
      start: (controller) => {
        if (after === undefined) controller.enqueue(sseFrame({ id: `${this.id}:0`, data: '' }));
      },
      pull: (controller) => this.write(connection, controller),
      cancel: () => {
        // The client went away; that is not cancellation, and later events wait here for a resumption.
        this.close(connection);
      },
    });
  }

  send(message: unknown): void {
    const event = { seq: ++this.seq, data: JSON.stringify(message) };
    this.events.push(event);
    // One process's sessions (the memory store) have no store to keep events in: this is the only cost then.
    this.stored?.put(event.seq, event.data);
    // Trimmed in halves, so the copy happens once every MAX_KEPT_EVENTS / 2 events, not on each one.
    if (this.events.length > MAX_KEPT_EVENTS) {
      const drop = this.events.length - MAX_KEPT_EVENTS / 2;
      this.events = this.events.slice(drop);
      this.dropped += drop;
    }
    this.connection?.wake?.();
  }

  /** No more events: the connection closes once it has them all. */
  end(): void {
    if (!this.ended) this.stored?.end(this.seq);
    this.ended = true;
    this.connection?.wake?.();
  }

  /** Resolves once the events sent so far are in the store too (at once without one): a Worker waits for it. */
  kept(): Promise<void> {
    return this.stored?.kept() ?? Promise.resolve();
  }

  /** Closes the connection without ending the stream. */
  detach(): void {
    if (this.connection) this.close(this.connection);
  }

  private close(connection: Connection): void {
    connection.closed = true;
    connection.wake?.();
    if (this.connection === connection) this.connection = undefined;
  }

  /** Writes what the connection has not had yet; waits (in the connection's own request) when that is nothing. */
  private async write(connection: Connection, controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    for (;;) {
      if (connection.closed) return closeQuietly(controller);
      if (connection.sent < this.seq) {
        // A client that resumes from before the kept events gets what is kept.
        for (const event of this.events.slice(Math.max(0, connection.sent - this.dropped))) controller.enqueue(this.frame(event));
        connection.sent = this.seq;
        this.onActivity();
        return;
      }
      if (this.ended) {
        this.close(connection);
        closeQuietly(controller);
        return this.onSettled();
      }
      if (!(await this.woken(connection))) {
        if (connection.closed) continue;
        this.onActivity();
        return controller.enqueue(KEEPALIVE);
      }
    }
  }

  /** Resolves true when woken, false after KEEPALIVE_MS of quiet. Made here, so it resumes in this connection's request. */
  private woken(connection: Connection): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(false), KEEPALIVE_MS);
      (timer as { unref?: () => void }).unref?.(); // on Node, a connection nobody reads does not keep the process alive
      const settle = (woken: boolean) => {
        clearTimeout(timer);
        connection.wake = undefined;
        resolve(woken);
      };
      connection.wake = () => settle(true);
    });
  }

  private frame(event: Event): Uint8Array {
    return sseFrame({ id: `${this.id}:${event.seq}`, data: event.data });
  }
}

function closeQuietly(controller: ReadableStreamDefaultController<Uint8Array>): void {
  try {
    controller.close();
  } catch {
    // already closed by the client
  }
}
