// POST from a client before 2026-07-28: initialize opens a session; every later message names it in Mcp-Session-Id.
import {
  callerKey,
  type Delivery,
  type ParleyServer,
  isClosing,
  shuttingDown,
  initializeResult,
  legacyMethod,
  negotiate,
  deliverAnswer,
} from '../../engine';
import {
  HEADER,
  inOkAnswer,
  InsufficientScopeError,
  McpWireError,
  wireError,
  RetryLaterError,
  toWireError,
  isLegacyVersion,
  isObject,
  isRequest,
  isResponse,
  type JsonRpcId,
  type JsonRpcMessage,
} from '../../protocol';
import { readEnv, traced } from '../../runtime';
import type { AuthInfo } from '../../model';
import { resolveCaller } from '../auth';
import { refuseScope } from '../challenge';
import { callOnStream, type CallHost } from './call';

export const SESSION_SECRET_REQUIRED =
  'Clients before 2026-07-28 need MCP_SESSION_SECRET in production: set it, the same on every instance';

const sessionNotFound = () => wireError('SESSION_NOT_FOUND', 'Session not found');

/**
 * The caller and their session, or the response that refuses the request (401, 400, 404; 429 or 503 past a cap; 503
 * when the store does not answer).
 */
export async function openSession(server: ParleyServer, request: Request, given: AuthInfo | undefined, id: JsonRpcId | null = null) {
  const auth = await resolveCaller(request, server, given);
  if (auth instanceof Response) return auth;
  const header = request.headers.get(HEADER.sessionId);
  if (header === null) return server.respond.error(id, wireError('INVALID_REQUEST', 'Bad Request: Mcp-Session-Id header is required'));
  const session = await answering(server, id, () => server.legacy.sessions.find(header, callerKey(auth)));
  if (session instanceof Response) return session;
  if (!session) return server.respond.error(id, sessionNotFound());
  return { auth, session };
}

/**
 * Runs `work`; what it throws becomes its response under the request's own id: a limit (a session of another instance
 * this one has no room for) or the store being unavailable with its status and Retry-After, anything else as 500.
 */
export async function answering<T>(server: ParleyServer, id: JsonRpcId | null, work: () => Promise<T>): Promise<T | Response> {
  try {
    return await work();
  } catch (error) {
    return server.respond.error(id, toWireError(error, server.logger));
  }
}

export function handleLegacyPost(
  server: ParleyServer,
  request: Request,
  message: JsonRpcMessage,
  given?: AuthInfo,
  host: CallHost = {},
): Promise<Response> {
  // An answer's id is its question's: an answer refused goes back under it, as a request's error goes under the request's.
  const id = isRequest(message) || isResponse(message) ? message.id : null;
  return answering(server, id, () => legacyPost(server, request, message, id, { given, host }));
}

async function legacyPost(
  server: ParleyServer,
  request: Request,
  message: JsonRpcMessage,
  id: JsonRpcId | null,
  { given, host }: { given?: AuthInfo; host: CallHost },
): Promise<Response> {
  const params = (isResponse(message) ? undefined : message.params) ?? {};
  // Shutting down: no new session, no new call; answers to waiting questions are still taken.
  if (isClosing(server) && isRequest(message) && (message.method === 'initialize' || message.method === 'tools/call'))
    return server.respond.error(id, shuttingDown());
  if (isRequest(message) && message.method === 'initialize' && !request.headers.has(HEADER.sessionId)) {
    const auth = await resolveCaller(request, server, given);
    if (auth instanceof Response) return auth;
    // Production serves older clients only with MCP_SESSION_SECRET set, so their questions are encrypted at rest.
    // Until it is set, that service is unavailable (503): a refusal by configuration, not a crash.
    if (server.production && !readEnv('MCP_SESSION_SECRET', server.env)) {
      server.logger.error(SESSION_SECRET_REQUIRED);
      return server.respond.error(id, wireError('SESSION_SECRET_REQUIRED', SESSION_SECRET_REQUIRED));
    }
    const version = negotiate(params.protocolVersion);
    const capabilities = isObject(params.capabilities) ? params.capabilities : {};
    const session = await server.legacy.sessions.create({ version, caller: callerKey(auth), capabilities, clientInfo: params.clientInfo });
    server.telemetry
      ?.request({
        method: 'initialize',
        era: 'legacy',
        params,
        id: message.id,
        version,
        session: session.record.sessionId,
        headers: request.headers,
        client: host.client,
      })
      .end({});
    return server.respond.json({ jsonrpc: '2.0', id, result: initializeResult(server, version) }, 200, {
      [HEADER.sessionId]: session.record.sessionId,
    });
  }
  const opened = await openSession(server, request, given, id);
  if (opened instanceof Response) return opened;
  const { auth, session } = opened;
  const version = request.headers.get(HEADER.protocolVersion);
  if (version !== null && !isLegacyVersion(version))
    return server.respond.error(id, wireError('INVALID_REQUEST', `Bad Request: Unsupported protocol version ${version}`));
  if (isResponse(message)) {
    const delivery = await deliverAnswer(server, session, message);
    // Accepted only when it reached its call, or when this instance can't tell (a record sealed with another secret).
    return delivery === 'delivered' || delivery === 'unreadable'
      ? server.respond.accepted()
      : server.respond.error(id, undeliverable(delivery));
  }
  if (!isRequest(message)) {
    if (message.method === 'notifications/cancelled') session.calls.get(params.requestId as string | number)?.abort();
    return server.respond.accepted();
  }
  try {
    if (message.method === 'initialize') throw wireError('INVALID_REQUEST', 'Invalid request: the session is already initialized');
    if (message.method === 'tools/call' || message.method === 'tasks/result')
      return await callOnStream(server, session, message, { request, auth }, host);
    const trace = server.telemetry?.request({
      method: message.method,
      era: 'legacy',
      params,
      id: message.id,
      version: session.record.version,
      session: session.record.sessionId,
      headers: request.headers,
      client: host.client,
    });
    const result = await traced(trace, legacyMethod(server, message.method, params, { session, auth, signal: request.signal }));
    return server.respond.result(message.id, result);
  } catch (error) {
    if (error instanceof InsufficientScopeError) return refuseScope(server, request, error);
    // Before 2026-07-28 a JSON-RPC error travels in a 200; a refusal to retry later (a limit, the store) keeps its
    // status and Retry-After, as the caller's answering() gives it.
    if (error instanceof McpWireError && !(error instanceof RetryLaterError)) return server.respond.error(id, inOkAnswer(error));
    throw error;
  }
}

const UNDELIVERABLE: Record<Exclude<Delivery, 'delivered' | 'unreadable'>, string> = {
  'no-question':
    'No call waits for this answer: the question was answered already, timed out, or never asked in this session. Call the tool again',
  'no-listener':
    'No call waits for this answer: the instance that asked no longer listens (it stopped, or it shares no publish/subscribe with this one). Call the tool again',
};

/** 410 Gone with a JSON-RPC error under the answer's id: the client learns its answer reached nobody. */
const undeliverable = (delivery: Exclude<Delivery, 'delivered' | 'unreadable'>) =>
  wireError('ANSWER_UNDELIVERABLE', UNDELIVERABLE[delivery], { reason: delivery });
