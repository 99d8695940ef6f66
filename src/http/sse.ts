// One request's answer: plain JSON, or an SSE stream once the request sends a notification (progress, a log line) first.
import { sseMessage, toWireError, type JsonRpcId } from '../protocol';
import type { ParleyServer, RunningCall } from '../engine';
import type { Emit } from '../model';

export interface RequestStream {
  emit: Emit;
  /** Fires when the client goes away: the request's own signal, or the SSE stream being closed. */
  signal: AbortSignal;
}

/**
 * One request's stream and its answer: notifications queue until the answer's form is decided, then go out as SSE
 * events. It holds what answering takes (no closures per request: the server's running calls hold it as it is).
 */
class ResponseStream implements RequestStream, RunningCall {
  #signal: AbortSignal | undefined;
  /** The request's signal while the call listens to it: let go once answered, so a long-lived one keeps nothing. */
  #request: AbortSignal | undefined;
  running = false;
  previousRunning: RunningCall | undefined = undefined;
  nextRunning: RunningCall | undefined = undefined;
  cancel: AbortController | undefined;
  sink: ReadableStreamDefaultController<Uint8Array> | undefined;
  readonly queued: Uint8Array[] = [];
  closed = false;

  constructor(
    private readonly server: ParleyServer,
    private readonly id: JsonRpcId,
    private readonly requestSignal: () => AbortSignal,
    private readonly resolve: (response: Response) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  readonly emit: Emit = (method, params) => {
    if (this.closed) return;
    const chunk = sseMessage({ jsonrpc: '2.0', method, params });
    if (this.sink) this.sink.enqueue(chunk);
    else {
      this.queued.push(chunk);
      this.#startStreaming();
    }
  };

  /**
   * Fires when the request's signal does, or the stream is closed, or shutdown ends the call. Built on first read: most
   * requests never look at their signal, and building it can cost (a Fetch Request on Node).
   */
  get signal(): AbortSignal {
    if (this.#signal) return this.#signal;
    const cancel = (this.cancel ??= new AbortController());
    const request = this.requestSignal();
    if (request.aborted) cancel.abort(request.reason);
    else if (!this.closed) (this.#request = request).addEventListener('abort', this, { once: true });
    return (this.#signal = cancel.signal);
  }

  /** The request's signal fired (the stream itself is its listener: no closure per request). */
  handleEvent(): void {
    this.cancel!.abort(this.#request!.reason);
  }

  /** Answered: the request's signal no longer concerns the call. */
  #release(): void {
    this.server.running.delete(this);
    this.#request?.removeEventListener('abort', this);
    this.#request = undefined;
  }

  /** The work's result: one JSON body (the fast path), or the stream's last event. */
  answer(result: Record<string, unknown>): void {
    this.#release();
    if (this.sink) return this.#settle({ jsonrpc: '2.0', id: this.id, result });
    this.closed = true;
    this.resolve(this.server.respond.result(this.id, result));
  }

  /** The work failed: thrown for the caller to answer (JSON), or the stream's last event. */
  fail(error: unknown): void {
    this.#release();
    if (this.sink) return this.#settle({ jsonrpc: '2.0', id: this.id, error: toWireError(error, this.server.logger).toJSON() });
    this.closed = true;
    this.reject(error);
  }

  /** Shutdown's end of grace: the tool's signal fires and the call answers with the error, whatever the tool does next. */
  end(error: Error): void {
    (this.cancel ??= new AbortController()).abort(error);
    this.fail(error); // once answered, a later answer or failure of the work changes nothing
  }

  // The first emit: the stream starts at once (start() runs in the constructor) with what was queued.
  #startStreaming(): void {
    this.resolve(
      this.server.respond.stream({
        start: (controller) => {
          this.sink = controller;
          for (const chunk of this.queued.splice(0)) controller.enqueue(chunk);
        },
        cancel: () => {
          this.closed = true;
          (this.cancel ??= new AbortController()).abort(new Error('The client closed the response stream'));
        },
      }),
    );
  }

  // The response as the stream's last event, unless the client closed it first.
  #settle(message: Record<string, unknown>): void {
    if (this.closed) return;
    this.closed = true;
    this.sink!.enqueue(sseMessage(message));
    this.sink!.close();
  }
}

/**
 * Runs the request and answers it. Nothing emitted before the result: JSON (the fast path), and a failure is thrown
 * for the caller to answer. Something emitted first: an SSE stream of the notifications, then the response; the stream
 * carries nothing else and ends with the response. Closing it cancels the request. Whichever comes first decides, in
 * the work's own callbacks: no promise races, so the fast path costs the work's settling and nothing more.
 */
export function respondToRequest(
  server: ParleyServer,
  id: JsonRpcId,
  requestSignal: () => AbortSignal,
  work: (stream: RequestStream) => Promise<Record<string, unknown>>,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const stream = new ResponseStream(server, id, requestSignal, resolve, reject);
    server.running.add(stream);
    // An answer that cannot be made (a result JSON cannot write) fails the request: no .catch(), one promise fewer.
    work(stream).then(
      (result) => {
        try {
          stream.answer(result);
        } catch (error) {
          reject(error);
        }
      },
      (error: unknown) => {
        try {
          stream.fail(error);
        } catch (failure) {
          reject(failure);
        }
      },
    );
  });
}
