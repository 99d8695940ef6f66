// The event streams parley-mcp/node writes to the socket as their source makes events, with no web stream between.
import type { ServerResponse } from 'node:http';
import { SSE_HEADERS, type StreamResponseMaker, type StreamSource } from '../protocol';
import { standIn } from './stand-in';
import { MAX_UNREAD_BYTES, writable } from './node-backpressure';

const closedError = () => new TypeError('The event stream is closed');

/** The real stream queues by bytes, so its backlog is measured as the socket's is. */
const HIGH_WATER = 16 * 1024;
const BY_BYTES: QueuingStrategy<Uint8Array> = { highWaterMark: HIGH_WATER, size: (chunk) => chunk.byteLength };

/**
 * What the source writes to, as it would to a ReadableStream's controller (and it throws, as that one does, once the
 * stream is closed): its events wait here until they have somewhere to go, the socket or the real stream of a
 * Response someone read. Its methods are the class's, not closures of each stream: a waiting question holds one.
 */
class SourceController implements ReadableStreamDefaultController<Uint8Array> {
  readonly desiredSize = 1;
  closed = false;
  /** Set while the socket takes no more: resolves on 'drain' (or once it is gone). The source is not pulled meanwhile. */
  blocked: Promise<void> | undefined;
  #queued: Uint8Array[] | undefined = [];
  #socket: ServerResponse | undefined;
  #stream: ReadableStreamDefaultController<Uint8Array> | undefined;

  /**
   * `pushes`: the source writes whenever it has events rather than when pulled, so only a cap bounds what waits; past
   * MAX_UNREAD_BYTES its stream is closed, as if the client had left, and `tooSlow` hears of it. A source that is pulled
   * is pulled no faster than the client reads, and keeps what waits itself.
   */
  constructor(
    private readonly pushes: boolean,
    private readonly tooSlow: (reason: Error) => void,
  ) {}

  enqueue(chunk?: Uint8Array): void {
    if (this.closed) throw closedError();
    if (chunk !== undefined) this.#write(chunk);
  }

  close(): void {
    if (this.closed) throw closedError();
    this.#end();
  }

  /** A source that fails ends the answer with what it sent. */
  error(): void {
    if (!this.closed) this.#end();
  }

  /** From now on the events go to `to`: first the ones that waited, then the end if the source has closed already. */
  attach(to: { socket: ServerResponse } | { stream: ReadableStreamDefaultController<Uint8Array> }): void {
    if ('socket' in to) this.#socket = to.socket;
    else this.#stream = to.stream;
    const queued = this.#queued!;
    this.#queued = undefined;
    for (const chunk of queued) this.#write(chunk);
    if (this.closed) this.#finish();
  }

  #write(chunk: Uint8Array): void {
    const socket = this.#socket;
    if (socket) {
      if (socket.destroyed) return; // closed for being too slow: its 'close' cancels the source
      if (this.pushes && socket.writableLength > MAX_UNREAD_BYTES) return void socket.destroy();
      if (!socket.write(chunk)) this.blocked ??= writable(socket).then(() => void (this.blocked = undefined));
    } else if (this.#stream) {
      // What the stream holds unread is its high-water mark less its desired size.
      if (!this.pushes || HIGH_WATER - this.#stream.desiredSize! <= MAX_UNREAD_BYTES) return this.#stream.enqueue(chunk);
      const reason = new Error(`The client left more than ${MAX_UNREAD_BYTES} bytes of the event stream unread`);
      this.#stream.error(reason);
      this.tooSlow(reason);
    } else this.#queued!.push(chunk);
  }

  #end(): void {
    this.closed = true;
    this.#finish();
  }

  #finish(): void {
    this.#socket?.end();
    this.#stream?.close();
  }
}

/**
 * An SSE answer whose events parley-mcp/node writes straight to the socket: a ReadableStream, its controller, a reader
 * and a Response per open stream cost an older client's waiting question about a seventh of its memory. Whoever reads
 * it as a Response gets the real one, built on first use from the same source.
 */
export class StreamedResponse {
  #real: Response | undefined;
  readonly #controller: SourceController;

  constructor(readonly source: StreamSource) {
    this.#controller = new SourceController(source.pull === undefined, (reason) => this.#cancel(reason));
    // ReadableStream's constructor runs start() before it returns: sources count on it (http/sse.ts, listen-stream.ts).
    void source.start?.(this.#controller);
  }

  get real(): Response {
    return (this.#real ??= new Response(
      new ReadableStream<Uint8Array>(
        {
          start: (stream) => this.#controller.attach({ stream }),
          pull: () => (this.#controller.closed ? undefined : this.source.pull?.(this.#controller)),
          cancel: (reason) => this.#cancel(reason),
        },
        BY_BYTES,
      ),
      { status: 200, headers: SSE_HEADERS },
    ));
  }

  /** True while nobody has read it as a Response: its events are still for the socket. */
  get untouched(): boolean {
    return this.#real === undefined;
  }

  get status(): number {
    return 200;
  }

  /** Writes the events to `socket` as they come, until the source closes the stream or the client goes away. */
  writeTo(socket: ServerResponse): void {
    socket.writeHead(200, { ...SSE_HEADERS });
    socket.flushHeaders(); // a stream that waits before its first event must still show its headers
    socket.on('close', () => {
      if (!socket.writableFinished) this.#cancel();
    });
    this.#controller.attach({ socket });
    void this.#pullOn();
  }

  /** The client went away: the source hears it once, and what it writes after that throws. */
  #cancel(reason?: unknown): void {
    if (this.#controller.closed) return;
    this.#controller.closed = true;
    try {
      void Promise.resolve(this.source.cancel?.(reason)).catch(() => {});
    } catch {
      // A source that fails to cancel has nothing more to send either.
    }
  }

  /**
   * As a reader that always waits for more: the source's pull again each time the last one settles and the socket takes
   * more, so a source that waits to be pulled keeps what a slow client has not read (and bounds it).
   */
  async #pullOn(): Promise<void> {
    if (!this.source.pull) return;
    try {
      while (!this.#controller.closed) {
        if (this.#controller.blocked) await this.#controller.blocked;
        else await this.source.pull(this.#controller);
      }
    } catch {
      this.#controller.error();
    }
  }
}

standIn(StreamedResponse, Response);

export const streamedResponse: StreamResponseMaker = (source) => new StreamedResponse(source) as unknown as Response;
