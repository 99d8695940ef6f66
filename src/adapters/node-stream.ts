// The event streams parley-mcp/node writes to the socket as their source makes events, with no web stream between.
import type { ServerResponse } from 'node:http';
import { SSE_HEADERS, type StreamResponseMaker, type StreamSource } from '../protocol';
import { standIn } from './stand-in';

/** Where the events go once they have somewhere to go: the socket, or a real ReadableStream's controller. */
interface Target {
  enqueue(chunk: Uint8Array): void;
  close(): void;
}

/**
 * An SSE answer whose events parley-mcp/node writes straight to the socket: a ReadableStream, its controller, a reader
 * and a Response per open stream cost an older client's waiting question more than a quarter of its memory. The
 * source sees a controller that queues until the stream is written somewhere, and throws once it is closed, as a
 * ReadableStream's does. Whoever reads it as a Response gets the real one, built on first use from the same source.
 */
export class StreamedResponse {
  #real: Response | undefined;
  #target: Target | undefined;
  #queued: Uint8Array[] = [];
  #closed = false;
  readonly #controller: ReadableStreamDefaultController<Uint8Array>;

  constructor(readonly source: StreamSource) {
    const closedError = () => new TypeError('The event stream is closed');
    this.#controller = {
      desiredSize: 1,
      enqueue: (chunk?: Uint8Array) => {
        if (this.#closed) throw closedError();
        if (chunk === undefined) return;
        if (this.#target) this.#target.enqueue(chunk);
        else this.#queued.push(chunk);
      },
      close: () => {
        if (this.#closed) throw closedError();
        this.#closed = true;
        this.#target?.close();
      },
      error: () => {
        if (this.#closed) return;
        this.#closed = true;
        this.#target?.close();
      },
    };
    // ReadableStream's constructor runs start() before it returns: sources count on it (http/sse.ts, listen-stream.ts).
    void source.start?.(this.#controller);
  }

  get real(): Response {
    return (this.#real ??= new Response(
      new ReadableStream<Uint8Array>({
        start: (controller) => this.#attach(controller),
        pull: () => this.#pullOnce(),
        cancel: (reason) => this.#cancel(reason),
      }),
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

  /** Writes the events to `outgoing` as they come, until the source closes the stream or the client goes away. */
  writeTo(outgoing: ServerResponse): void {
    outgoing.writeHead(200, { ...SSE_HEADERS });
    outgoing.flushHeaders(); // a stream that waits before its first event must still show its headers
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) this.#cancel();
    });
    this.#attach({ enqueue: (chunk) => outgoing.write(chunk), close: () => outgoing.end() });
    void this.#pullOn();
  }

  #attach(target: Target): void {
    this.#target = target;
    for (const chunk of this.#queued.splice(0)) target.enqueue(chunk);
    if (this.#closed) target.close();
  }

  #cancel(reason?: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    void Promise.resolve(this.source.cancel?.(reason)).catch(() => {});
  }

  async #pullOnce(): Promise<void> {
    if (!this.#closed) await this.source.pull?.(this.#controller);
  }

  /** As a reader that always waits for more: the source's pull again each time the last one settles. */
  async #pullOn(): Promise<void> {
    if (!this.source.pull) return;
    try {
      while (!this.#closed) await this.source.pull(this.#controller);
    } catch {
      // The source failed: nothing more to send.
      this.#controller.error(undefined);
    }
  }
}

standIn(StreamedResponse, Response);

export const streamedResponse: StreamResponseMaker = (source) => new StreamedResponse(source) as unknown as Response;
