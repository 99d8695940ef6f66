// One server-sent-events stream of a session: numbered events, kept so a client that lost the connection can resume.
const encoder = new TextEncoder();

export const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' } as const;

interface Event {
  seq: number;
  data: string;
}

/** Event ids are `<stream id>:<number>`: unique in the session, and they say which stream to replay. */
export function parseEventId(value: string): { streamId: string; seq: number } | undefined {
  const m = /^([A-Za-z0-9_-]{1,64}):(\d{1,9})$/.exec(value);
  return m ? { streamId: m[1]!, seq: Number(m[2]) } : undefined;
}

export class EventStream {
  private seq = 0;
  private readonly events: Event[] = [];
  private controller?: ReadableStreamDefaultController<Uint8Array>;
  private ended = false;

  constructor(
    readonly id: string,
    /** Called when the stream has ended and its last event reached a connection: nothing is left to resume. */
    private readonly onSettled: () => void = () => {},
  ) {}

  /** A response carrying the events after `after` (a fresh stream starts with a priming event), then the live ones. */
  connect(after?: number): Response {
    this.detach();
    let mine: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        mine = this.controller = controller;
        if (after === undefined) controller.enqueue(encoder.encode(`id: ${this.id}:0\ndata: \n\n`));
        for (const event of this.events) if (event.seq > (after ?? 0)) controller.enqueue(this.frame(event));
        if (this.ended) this.finish();
      },
      cancel: () => {
        // The client went away; that is not cancellation, and later events wait here for a resumption.
        if (this.controller === mine) this.controller = undefined;
      },
    });
    return new Response(body, { status: 200, headers: { ...SSE_HEADERS } });
  }

  send(message: unknown): void {
    const event = { seq: ++this.seq, data: JSON.stringify(message) };
    this.events.push(event);
    try {
      this.controller?.enqueue(this.frame(event));
    } catch {
      this.controller = undefined;
    }
  }

  /** No more events: the connection closes once it has them all. */
  end(): void {
    this.ended = true;
    if (this.controller) this.finish();
  }

  /** Closes the connection without ending the stream. */
  detach(): void {
    const controller = this.controller;
    this.controller = undefined;
    try {
      controller?.close();
    } catch {
      // already closed by the client
    }
  }

  private finish(): void {
    this.detach();
    this.onSettled();
  }

  private frame(event: Event): Uint8Array {
    return encoder.encode(`id: ${this.id}:${event.seq}\ndata: ${event.data}\n\n`);
  }
}
