// subscriptions/listen over HTTP: an SSE stream that stays open, with keep-alive comments, until the client closes it,
// or until it has sent no notification for http.listen.idleTtlMs; the caller's and the process's caps come first.
import { KEEPALIVE, KEEPALIVE_MS, META, sseMessage, type JsonRpcId } from '../protocol';
import { type ParleyServer, openSubscription } from '../engine';

/**
 * Throws (before any byte is sent) when the params are bad or a cap is reached (a LimitError: 429 or 503 with
 * Retry-After), so the client gets a plain JSON-RPC error.
 */
export function listenResponse(
  server: ParleyServer,
  id: JsonRpcId,
  params: Record<string, unknown>,
  caller: string,
  signal: AbortSignal,
): Response {
  const listener = server.listens.admit(caller);
  let open = true;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let unsubscribe: (() => void) | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    open = false;
    clearInterval(timer);
    unsubscribe?.();
    server.listens.close(listener);
  };
  // start() runs inside the constructor, so the controller exists before the acknowledgement is sent.
  const response = server.respond.stream({ start: (c) => void (controller = c), cancel: () => stop() });
  try {
    unsubscribe = openSubscription(server, id, params, (message) => {
      if (!open) return;
      server.listens.sent(listener);
      controller.enqueue(sseMessage(message));
    });
  } catch (error) {
    stop();
    throw error;
  }
  // Idle, or the server shutting down: a graceful end, with the closing result, so the client knows to listen again
  // (here, or on another instance) if it still wants to.
  listener.end = () => {
    if (!open) return;
    stop();
    controller.enqueue(sseMessage({ jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { [META.subscriptionId]: id } } }));
    controller.close();
  };
  timer = setInterval(() => {
    if (!open) return;
    if (!server.listens.isIdle(listener)) return void controller.enqueue(KEEPALIVE);
    listener.end?.();
  }, KEEPALIVE_MS);
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
