// subscriptions/listen over HTTP: an SSE stream that stays open, with keep-alive comments, until the client closes it.
import type { JsonRpcId } from '../protocol';
import { KEEPALIVE, KEEPALIVE_MS, type ParleyServer, openSubscription } from '../engine';
import { sseEvent } from './sse';

/** Throws (before any byte is sent) when the params are bad, so the client gets a plain JSON-RPC error. */
export function listenResponse(server: ParleyServer, id: JsonRpcId, params: Record<string, unknown>, signal: AbortSignal): Response {
  let open = true;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stop = () => {
    open = false;
    clearInterval(timer);
    unsubscribe();
  };
  // start() runs inside the constructor, so the controller exists before the acknowledgement is sent.
  const response = server.respond.stream({ start: (c) => void (controller = c), cancel: () => stop() });
  const unsubscribe = openSubscription(server, id, params, (message) => open && controller.enqueue(sseEvent(message)));
  const timer = setInterval(() => open && controller.enqueue(KEEPALIVE), KEEPALIVE_MS);
  signal.addEventListener(
    'abort',
    () => {
      if (!open) return;
      stop();
      controller.close();
    },
    { once: true },
  );
  return response;
}
