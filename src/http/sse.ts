// One request's answer: plain JSON, or an SSE stream once the request sends a notification (progress, a log line) first.
import { toWireError, type JsonRpcId } from '../protocol';
import type { ParleyServer } from '../engine';
import type { Emit } from '../server';

const encoder = new TextEncoder();

/** One SSE event carrying one JSON-RPC message. No ids: 2026-07-28 streams are not resumable. */
export const sseEvent = (message: unknown): Uint8Array => encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);

export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
} as const;

/** A signal that fires when either one does. */
export function eitherSignal(a: AbortSignal, b: AbortSignal): AbortSignal {
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

type Settled = { ok: true; result: Record<string, unknown> } | { ok: false; error: unknown };

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
    const chunk = sseEvent({ jsonrpc: '2.0', method, params });
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
 * carries nothing else and ends with the response. Closing it cancels the request.
 */
export async function respondToRequest(
  server: ParleyServer,
  id: JsonRpcId,
  requestSignal: () => AbortSignal,
  work: (stream: RequestStream) => Promise<Record<string, unknown>>,
): Promise<Response> {
  // Settles with the work's outcome, or with 'stream' as soon as something is emitted first: whichever comes first.
  let decide!: (first: Settled | 'stream') => void;
  const first = new Promise<Settled | 'stream'>((resolve) => (decide = resolve));
  const stream = new ResponseStream(requestSignal, () => decide('stream'));
  const settled: Promise<Settled> = work(stream).then(
    (result) => ({ ok: true, result }),
    (error: unknown) => ({ ok: false, error }),
  );
  void settled.then(decide);
  const outcome = await first;
  if (outcome !== 'stream') {
    stream.closed = true; // Fast path: nothing streamed, so the answer is one JSON body.
    if (outcome.ok) return server.respond.result(id, outcome.result);
    throw outcome.error;
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      stream.sink = controller;
      for (const chunk of stream.queued.splice(0)) controller.enqueue(chunk);
      void settled.then((outcome) => {
        if (stream.closed) return;
        stream.closed = true;
        const message = outcome.ok
          ? { jsonrpc: '2.0', id, result: outcome.result }
          : { jsonrpc: '2.0', id, error: toWireError(outcome.error, server.logger).toJSON() };
        controller.enqueue(sseEvent(message));
        controller.close();
      });
    },
    cancel() {
      stream.closed = true;
      (stream.cancel ??= new AbortController()).abort(new Error('The client closed the response stream'));
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
