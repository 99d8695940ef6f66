// One request's answer: plain JSON, or an SSE stream once the request sends a notification (progress, a log line) first.
import { sseMessage, toWireError, type JsonRpcId } from '../protocol';
import type { ParleyServer } from '../engine';
import type { Emit } from '../model';

/** A signal that fires when either one does. */
function eitherSignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const abort = (s: AbortSignal) => () => controller.abort(s.reason);
  for (const s of [a, b]) {
    if (s.aborted) abort(s)();
    else s.addEventListener('abort', abort(s), { once: true });
  }
  return controller.signal;
}

export interface RequestStream {
  emit: Emit;
  /** Fires when the client goes away: the request's own signal, or the SSE stream being closed. */
  signal: AbortSignal;
}

/** One request's stream: notifications queue until the answer's form is decided, then go out as SSE events. */
class ResponseStream implements RequestStream {
  #signal: AbortSignal | undefined;
  cancel: AbortController | undefined;
  sink: ReadableStreamDefaultController<Uint8Array> | undefined;
  readonly queued: Uint8Array[] = [];
  closed = false;

  constructor(
    private readonly requestSignal: () => AbortSignal,
    /** Called when something is emitted before the answer: the answer becomes an SSE stream. */
    private readonly startStreaming: () => void,
  ) {}

  readonly emit: Emit = (method, params) => {
    if (this.closed) return;
    const chunk = sseMessage({ jsonrpc: '2.0', method, params });
    if (this.sink) this.sink.enqueue(chunk);
    else {
      this.queued.push(chunk);
      this.startStreaming();
    }
  };

  // Built on first read: most requests never look at their signal, and building it can cost (a Fetch Request on Node).
  get signal(): AbortSignal {
    return (this.#signal ??= eitherSignal(this.requestSignal(), (this.cancel ??= new AbortController()).signal));
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
    // The first emit: the stream starts at once (start() runs in the constructor) with what was queued.
    const stream = new ResponseStream(requestSignal, () => {
      const response = server.respond.stream({
        start(controller) {
          stream.sink = controller;
          for (const chunk of stream.queued.splice(0)) controller.enqueue(chunk);
        },
        cancel() {
          stream.closed = true;
          (stream.cancel ??= new AbortController()).abort(new Error('The client closed the response stream'));
        },
      });
      resolve(response);
    });
    // The response as the stream's last event, unless the client closed it first.
    const settle = (message: () => Record<string, unknown>) => {
      if (stream.closed) return;
      stream.closed = true;
      stream.sink!.enqueue(sseMessage(message()));
      stream.sink!.close();
    };
    const fail = (error: unknown) => {
      if (stream.sink) return settle(() => ({ jsonrpc: '2.0', id, error: toWireError(error, server.logger).toJSON() }));
      stream.closed = true;
      reject(error);
    };
    // Shutdown's end of grace: the tool's signal fires and the call answers with the error, whatever the tool does next.
    const end = (error: Error) => {
      (stream.cancel ??= new AbortController()).abort(error);
      fail(error);
    };
    server.running.add(end);
    work(stream)
      .then(
        (result) => {
          server.running.delete(end);
          if (stream.sink) return settle(() => ({ jsonrpc: '2.0', id, result }));
          stream.closed = true; // Fast path: nothing streamed, so the answer is one JSON body.
          resolve(server.respond.result(id, result));
        },
        (error: unknown) => {
          server.running.delete(end);
          fail(error); // once ended at shutdown, a settled answer: this changes nothing
        },
      )
      .catch(reject); // an answer that could not be made (a result JSON cannot write) fails the request
  });
}
