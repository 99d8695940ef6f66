// tools/call before 2026-07-28: the tool runs while the call's SSE stream stays open, so elicit() can ask on it.
import { pendingOf } from '../../elicitation/pending';
import { StreamAsker } from '../../elicitation/stream-asker';
import { ErrorCode, McpWireError, errorResponse, type JsonRpcRequest } from '../../protocol';
import { findTool, runTool } from '../../server/call-tool';
import { ElicitationNotSupportedError } from '../../server/errors';
import type { ParleyServer } from '../../server/instance';
import type { AuthInfo } from '../../server/tool-types';
import { jsonResponse } from '../respond';
import { openStream, type LiveSession } from './sessions';

export async function callTool(server: ParleyServer, session: LiveSession, message: JsonRpcRequest, auth: AuthInfo, request: Request): Promise<Response> {
  const { entry, args } = findTool(server, message.params ?? {});
  const controller = new AbortController();
  session.calls.set(message.id, controller);
  const sse = (request.headers.get('accept') ?? '').includes('text/event-stream');
  // A client that takes only JSON is asked on its GET stream, if it opened one.
  const stream = sse ? openStream(session) : undefined;
  const send = (m: unknown) => {
    const target = stream ?? session.standalone;
    if (!target) throw new ElicitationNotSupportedError('This client accepts no event stream to be asked on: open the GET stream or accept text/event-stream');
    target.send(m);
  };
  const asker = new StreamAsker({ sessionId: session.record.sessionId, capabilities: session.record.capabilities, pending: pendingOf(server), send, signal: controller.signal });
  const reply = runTool(server, entry, args, { auth, signal: controller.signal, asker }).then(
    (outcome) => ({ jsonrpc: '2.0' as const, id: message.id, result: outcome.kind === 'result' ? outcome.result : {} }),
    (error: unknown) => errorResponse(message.id, error instanceof McpWireError ? error : internal(server, error)),
  );
  const finished = reply.finally(() => session.calls.delete(message.id));
  if (!stream) return jsonResponse(await finished);
  void finished.then((response) => {
    // A cancelled call sends nothing more.
    if (!controller.signal.aborted) stream.send(response);
    stream.end();
  });
  return stream.connect();
}

function internal(server: ParleyServer, error: unknown): McpWireError {
  const errorId = crypto.randomUUID();
  server.logger.error(`Request failed (error id ${errorId})`, error);
  return new McpWireError(ErrorCode.InternalError, `Internal error (error id: ${errorId})`);
}
