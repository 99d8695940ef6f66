// subscriptions/listen over HTTP: an SSE stream that stays open, with keep-alive comments, until the client closes it,
// or until it has sent no notification for http.listen.idleTtlMs; the caller's and the process's caps come first.
import { KEEPALIVE, KEEPALIVE_MS, META, sseMessage, type JsonRpcId } from '../protocol';
import { callerKey, type Listening, type ParleyServer, openSubscription } from '../engine';

/**
 * Rejects (before any byte is sent) when the params are bad or a cap is reached (a LimitError: 429 or 503 with
 * Retry-After), so the client gets a plain JSON-RPC error.
 */
export async function listenResponse(
  server: ParleyServer,
  id: JsonRpcId,
  params: Record<string, unknown>,
  who: Listening,
  signal: AbortSignal,
): Promise<Response> {
  const listener = server.listens.admit(callerKey(who.auth));
  let open = true;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let unsubscribe: (() => void) | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    open = false;
    clearInterval(timer);
    unsubscribe?.();
    server.listens.close(listener);
    signal.removeEventListener('abort', abort); // a long-lived signal keeps nothing of a closed stream
  };
  const abort = () => {
    if (!open) return;
    stop();
    controller.close();
  };
  // start() runs inside the constructor, so the controller exists before the acknowledgement is sent.
  const response = server.respond.stream({ start: (c) => void (controller = c), cancel: () => stop() });
  try {
    unsubscribe = await openSubscription(server, id, params, who, (message) => {
      if (!open) return;
      server.listens.sent(listener);
      controller.enqueue(sseMessage(message));
    });
  } catch (error) {
    stop();
    throw error;
  }
  // Cancelled while the tasks it named were looked up: stop() ran before there was anything to unsubscribe.
  if (!open) unsubscribe();
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
  // The client may have left while the tasks it named were looked up.
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return response;
}
