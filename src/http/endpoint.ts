// The MCP endpoint: one POST in, one JSON-RPC answer out, for 2026-07-28 and for requests that name no version;
// the legacy transport takes the rest.
import {
  HEADER,
  McpWireError,
  methodNotFound,
  wireError,
  isObject,
  isRequest,
  isResponse,
  parseMessage,
  RefusedMessage,
  type JsonRpcId,
  readBody,
  type BodyReader,
  checkHeaders,
  readEnvelope,
  toWireError,
  isLegacyMessage,
  InsufficientScopeError,
} from '../protocol';
import { isKnownMethod, handleRequest, isClosing, shuttingDown, type ParleyServer, type KeepAlive } from '../engine';
import { traced, type RequestTrace } from '../runtime';
import { ANONYMOUS, createNotifier, type AuthInfo, type ListChanges, type Notifier, type RequestScope } from '../model';
import { resolveCaller } from './auth';
import { refuseScope } from './challenge';
import { handleLegacyPost } from './legacy';
import { listenResponse } from './listen-stream';
import { checkParamHeaders } from './param-headers';
import { respondToRequest, type RequestStream } from './sse';

/**
 * A request's scope on HTTP: its signal and notifications are its response stream's (attached when the answer starts),
 * the signal built on first read. Built before the stream, so a bad log level is -32602 before anything starts.
 */
class StreamScope implements RequestScope {
  stream?: RequestStream;
  trace?: RequestTrace;
  readonly notifier: Notifier;
  readonly changes: ListChanges;
  readonly keepAlive: KeepAlive | undefined;
  readonly client: string | undefined;

  constructor(
    server: ParleyServer,
    readonly auth: AuthInfo,
    readonly capabilities: Record<string, unknown>,
    meta: Record<string, unknown> | undefined,
    host: HostFacts,
  ) {
    this.keepAlive = host.keepAlive;
    this.client = host.client;
    this.notifier = createNotifier(meta, (method, params) => this.stream?.emit(method, params), server.logger);
    this.changes = server.changes;
  }

  get signal(): AbortSignal {
    return (this.stream as RequestStream).signal;
  }
}

/** What the host knows of a request that the Request does not carry. */
interface HostFacts {
  /** The caller, when the host verified it itself. */
  auth?: AuthInfo;
  /** Reads the body faster than `request.text()` (parley-mcp/node reads the socket). */
  readBody?: BodyReader;
  /** The platform's waitUntil (a Worker's ctx), for calls whose tool runs on after their response. */
  keepAlive?: KeepAlive;
  /** The caller's address, for the request span's client.address and the count of an anonymous caller's tasks. */
  client?: string;
  /** Whether the request carries an Mcp-Session-Id header, when the route has read it already; read here otherwise. */
  session?: boolean;
}

export async function handlePost(server: ParleyServer, request: Request, host: HostFacts = {}): Promise<Response> {
  // The caller first, from the headers: an unauthenticated client gets its 401 before any body is read or parsed.
  // Fast path: with no verifier and no host's caller, anonymous at once, with no async step of its own.
  const caller = host.auth === undefined && !server.verifyBearer ? ANONYMOUS : await resolveCaller(request, server, host.auth);
  if (caller instanceof Response) return caller;
  const body = await readBody(request, server.config.http.maxBodyBytes, host.readBody);
  if (body instanceof McpWireError) return server.respond.error(null, body);
  let id: JsonRpcId | null = null;
  try {
    const message = parseMessage(body);
    const headers = request.headers;
    const version = headers.get(HEADER.protocolVersion); // read once: the era, the envelope's check
    // Clients before 2026-07-28 (initialize, a session, a legacy version header) have a transport of their own.
    if (isLegacyMessage(message, { session: host.session ?? headers.has(HEADER.sessionId), version }))
      return await handleLegacyPost(server, request, message, caller, host);
    if (isResponse(message)) throw wireError('INVALID_REQUEST', 'Invalid request: a 2026-07-28 client must not send responses');
    if (isRequest(message)) id = message.id;
    const params = message.params ?? {};
    // A request that names no version, in a header or in _meta, is served as 2026-07-28 with nobody to ask.
    const unversioned = version === null && params._meta === undefined;
    const envelope = unversioned ? undefined : readEnvelope(params, version);
    if (envelope) checkHeaders(headers, message.method, params);
    const tool = envelope && message.method === 'tools/call' && typeof params.name === 'string' ? server.tools.get(params.name) : undefined;
    // A tool that mirrors no argument in a header has nothing to check: no call, no loop (most tools).
    if (tool && tool.headerParams.length > 0) checkParamHeaders(headers, tool.headerParams, params.arguments);
    // On HTTP, 2026-07-28 cancels by closing the stream; other notifications need nothing from us.
    if (!isRequest(message)) return server.respond.accepted();
    if (isClosing(server)) throw shuttingDown(); // a new call goes to another instance; calls already running go on
    const listen = message.method === 'subscriptions/listen';
    if (!listen && !isKnownMethod(message.method)) throw methodNotFound(message.method);
    if (listen)
      return await listenResponse(server, message.id, params, { auth: caller, capabilities: envelope?.capabilities ?? {} }, request.signal);
    const era = envelope ? 'modern' : 'unversioned';
    const capabilities = envelope?.capabilities ?? {};
    const meta = isObject(params._meta) ? params._meta : undefined;
    const scope = new StreamScope(server, caller, capabilities, meta, host);
    const trace = server.telemetry?.request({
      method: message.method,
      era,
      params,
      id: message.id,
      version: envelope?.version,
      store: 'request-state',
      headers,
      client: host.client,
    });
    scope.trace = trace;
    return await respondToRequest(
      server,
      message.id,
      // Read only when a handler asks: on Node, request.signal builds the whole Fetch Request.
      () => request.signal,
      (stream) => {
        scope.stream = stream;
        return traced(trace, handleRequest(server, message.method, params, scope, era));
      },
    );
  } catch (error) {
    if (error instanceof InsufficientScopeError) return refuseScope(server, request, error);
    return server.respond.error(error instanceof RefusedMessage ? error.id : id, toWireError(error, server.logger));
  }
}
