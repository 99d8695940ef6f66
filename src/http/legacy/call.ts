// tools/call (and 2025-11-25's tasks/result, which asks a task's questions the same way) before 2026-07-28 over HTTP: the tool runs while the call's SSE stream stays open, so elicit() can ask on it.
import { type KeepAlive, type ParleyServer, prepareTaskResult, prepareToolCall, type LiveSession } from '../../engine';
import {
  McpWireError,
  errorResponse,
  toWireError,
  type JsonRpcRequest,
  type JsonRpcResponse,
  ElicitationNotSupportedError,
} from '../../protocol';
import type { AuthInfo } from '../../model';
import type { EventStream } from './event-stream';
import { openStream } from './open-stream';

/** What the host knows of a call beyond its Request: its waitUntil (a Worker's ctx) and the caller's address. */
export interface CallHost {
  keepAlive?: KeepAlive;
  client?: string;
}

/** Runs a tools/call (or tasks/result) of a session, answering on an SSE stream the call's questions go out on first. */
export async function callOnStream(
  server: ParleyServer,
  session: LiveSession,
  message: JsonRpcRequest,
  { request, auth }: { request: Request; auth: AuthInfo },
  { keepAlive, client }: CallHost = {},
): Promise<Response> {
  const trace = server.telemetry?.request({
    method: message.method,
    era: 'legacy',
    params: message.params ?? {},
    id: message.id,
    version: session.record.version,
    store: server.elicitationStore?.info.type,
    session: session.record.sessionId,
    headers: request.headers,
    client,
  });
  let call: ReturnType<typeof prepareToolCall>;
  let stream: EventStream | undefined;
  try {
    // An unknown tool or bad arguments are refused before any stream opens.
    const prepare = message.method === 'tasks/result' ? prepareTaskResult : prepareToolCall;
    call = prepare(server, session, message.params ?? {}, auth);
    const sse = (request.headers.get('accept') ?? '').includes('text/event-stream');
    // A client that takes only JSON is asked on its GET stream, if it opened one. Past maxStreams this throws a LimitError.
    stream = sse ? openStream(server, session) : undefined;
  } catch (error) {
    trace?.watch(Promise.reject(error)).catch(() => {}); // the refusal ends the span as the error it is
    throw error;
  }
  const controller = new AbortController();
  const untrack = server.legacy.sessions.track(session, message.id, controller);
  const send = (m: unknown) => {
    const target = stream ?? session.standalone;
    if (!target)
      throw new ElicitationNotSupportedError(
        'This client accepts no event stream to be asked on: open the GET stream or accept text/event-stream',
      );
    target.send(m);
  };
  const emit = stream ? (method: string, params: Record<string, unknown>) => stream.send({ jsonrpc: '2.0', method, params }) : undefined;
  const outcome = call.run({ auth, signal: controller.signal, send, emit, trace, keepAlive });
  // The call is untracked as its answer is made: one promise for both, not a `finally` after it (a waiting call holds it).
  const finished = (trace ? trace.watch(outcome, (result) => result) : outcome).then(
    (result): JsonRpcResponse => {
      untrack();
      return { jsonrpc: '2.0', id: message.id, result };
    },
    (error: unknown) => {
      untrack();
      return errorResponse(message.id, toWireError(error, server.logger));
    },
  );
  // The server ends a call with a reason (its session ended, the server shuts down): the client gets that error at
  // once, whatever the tool does meanwhile. A client's own cancellation carries no such reason, and gets nothing.
  const cut = (resolve: (response: JsonRpcResponse) => void) =>
    controller.signal.addEventListener(
      'abort',
      () => controller.signal.reason instanceof McpWireError && resolve(errorResponse(message.id, controller.signal.reason)),
      { once: true },
    );
  // Once the answer is out, the call's signal fires: questions it left waiting (one of a Promise.all that failed) stop
  // waiting and free their places in elicitation.pending.
  if (!stream) {
    const response = await Promise.race([finished, new Promise(cut)]);
    controller.abort();
    return server.respond.json(response);
  }
  let done = false;
  const finish = (response?: JsonRpcResponse) => {
    if (done) return;
    done = true;
    if (response) stream.send(response);
    stream.end();
    controller.abort();
  };
  // No promise per streamed call waits for it: the abort listener ends the stream itself.
  cut(finish);
  // A cancelled call sends nothing more.
  const delivered = finished.then((response) => finish(controller.signal.aborted ? undefined : response));
  // The tool runs on if the client leaves (it may resume with Last-Event-ID): on a Worker, that needs ctx.waitUntil,
  // until its last events are in the store too (a reconnect to another isolate reads them there).
  keepAlive?.waitUntil(delivered.then(() => stream.kept()));
  return stream.connect(server.respond);
}
