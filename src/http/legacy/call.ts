// tools/call before 2026-07-28: the tool runs while the call's SSE stream stays open, so elicit() can ask on it.
import {
  callToolWithFallback,
  takesFallback,
  FALLBACK_TOOL,
  type KeepAlive,
  pendingOf,
  StreamAsker,
  findTool,
  runTool,
  type ParleyServer,
  sessionsOf,
  type LiveSession,
} from '../../engine';
import {
  META,
  McpWireError,
  errorResponse,
  toWireError,
  invalidParams,
  isObject,
  type JsonRpcRequest,
  type JsonRpcResponse,
  ElicitationNotSupportedError,
} from '../../protocol';
import { createNotifier, type AuthInfo } from '../../server';

export async function callTool(
  server: ParleyServer,
  session: LiveSession,
  message: JsonRpcRequest,
  auth: AuthInfo,
  request: Request,
  keepAlive?: KeepAlive,
): Promise<Response> {
  const params = message.params ?? {};
  // A client that declared no elicitation has its questions asked through the fallback (a question comes back as a
  // pending result); the call streams its progress and logs all the same.
  const fallback = takesFallback(server, params.name, session.record.capabilities);
  if (fallback && typeof params.name !== 'string') throw invalidParams('tools/call needs params.name, a string');
  // An unknown tool or bad arguments are refused before any stream opens.
  const { entry, args } =
    fallback && params.name === FALLBACK_TOOL && !server.tools.has(FALLBACK_TOOL)
      ? { entry: undefined, args: isObject(params.arguments) ? params.arguments : {} }
      : findTool(server, params);
  const sse = (request.headers.get('accept') ?? '').includes('text/event-stream');
  // A client that takes only JSON is asked on its GET stream, if it opened one. Past maxStreams this throws a LimitError.
  const stream = sse ? sessionsOf(server).openStream(session) : undefined;
  const controller = new AbortController();
  session.calls.set(message.id, controller);
  const send = (m: unknown) => {
    const target = stream ?? session.standalone;
    if (!target)
      throw new ElicitationNotSupportedError(
        'This client accepts no event stream to be asked on: open the GET stream or accept text/event-stream',
      );
    target.send(m);
  };
  const asker = new StreamAsker({
    sessionId: session.record.sessionId,
    caller: session.record.caller,
    capabilities: session.record.capabilities,
    pending: pendingOf(server),
    send,
    signal: controller.signal,
  });
  const caps = isObject(session.record.capabilities) ? session.record.capabilities : {};
  const meta = { ...(isObject(message.params?._meta) ? message.params._meta : {}), [META.logLevel]: session.logLevel };
  const emit = stream ? (method: string, params: Record<string, unknown>) => stream.send({ jsonrpc: '2.0', method, params }) : undefined;
  const notifier = createNotifier(meta, emit, server.logger);
  // A caller with no token is known by its session: that is the subject of its persistent questions.
  const known = auth.anonymous ? { ...auth, sessionId: session.record.sessionId } : auth;
  const trace = server.telemetry?.request({
    method: 'tools/call',
    era: 'legacy',
    params,
    version: session.record.version,
    store: server.elicitationStore?.info.type,
  });
  const scope = { auth: known, signal: controller.signal, asker, capabilities: caps, notifier, changes: server.changes, trace };
  const outcome = fallback
    ? callToolWithFallback(server, params.name as string, args, {
        auth,
        sessionId: session.record.sessionId,
        signal: controller.signal,
        through: { notifier, capabilities: caps, request: (key, method, p) => asker.request(key, method, p) },
      }).then((result) => ({ kind: 'result' as const, result }))
    : runTool(server, entry!, args, scope);
  const reply = (trace ? trace.watch(outcome, (o) => (o.kind === 'result' ? o.result : undefined)) : outcome).then(
    (outcome) => ({ jsonrpc: '2.0' as const, id: message.id, result: outcome.kind === 'result' ? outcome.result : {} }),
    (error: unknown) => errorResponse(message.id, toWireError(error, server.logger)),
  );
  const finished = reply.finally(() => session.calls.delete(message.id));
  // The server ends a call with a reason (its session ended, the server shuts down): the client gets that error at
  // once, whatever the tool does meanwhile. A client's own cancellation carries no such reason, and gets nothing.
  const cut = new Promise<JsonRpcResponse>((resolve) =>
    controller.signal.addEventListener(
      'abort',
      () => controller.signal.reason instanceof McpWireError && resolve(errorResponse(message.id, controller.signal.reason)),
      { once: true },
    ),
  );
  // Once the answer is out, the call's signal fires: questions it left waiting (one of a Promise.all that failed) stop
  // waiting and free their places in elicitation.pending.
  if (!stream) {
    const response = await Promise.race([finished, cut]);
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
  void cut.then(finish);
  // A cancelled call sends nothing more.
  const delivered = finished.then((response) => finish(controller.signal.aborted ? undefined : response));
  // The tool runs on if the client leaves (it may resume with Last-Event-ID): on a Worker, that needs ctx.waitUntil.
  keepAlive?.waitUntil(delivered);
  return stream.connect();
}
