// One stdio connection: each line in is a JSON-RPC message, each answer goes out as one line; calls run side by side.
import {
  readEnvelope,
  wireError,
  isLegacyMessage,
  type McpWireError,
  errorResponse,
  isObject,
  toWireError,
  isRequest,
  isResponse,
  methodNotFound,
  parseMessage,
  RefusedMessage,
  type JsonRpcId,
  type JsonRpcRequest,
} from '../protocol';
import { type ParleyServer, handleRequest, isKnownMethod } from '../engine';
import { traced } from '../runtime';
import { createNotifier, type AuthInfo } from '../model';
import { StdioLegacySession } from './legacy-session';

export class StdioConnection {
  /** Requests in flight by id, so notifications/cancelled can fire the tool's AbortSignal. */
  private readonly inflight = new Map<JsonRpcId, AbortController>();
  private readonly running = new Set<Promise<void>>();
  /** Set by initialize: a client before 2026-07-28, served as one session for the life of the process. */
  private legacy?: StdioLegacySession;

  constructor(
    private readonly server: ParleyServer,
    private readonly auth: AuthInfo,
    private readonly send: (message: unknown) => Promise<void>,
  ) {}

  /** Handles one line; a request's answer is sent when its call is done. */
  receive(line: string): void {
    if (line.trim() === '') return;
    let message;
    try {
      message = parseMessage(line);
    } catch (error) {
      void this.send(errorResponse(error instanceof RefusedMessage ? error.id : null, error as McpWireError));
      return;
    }
    if (isResponse(message)) {
      // Only a legacy session is sent requests (elicitation/create); 2026-07-28 clients are never asked that way.
      if (this.legacy)
        void this.legacy.receive(message).catch((error: unknown) => this.server.logger.error('Could not deliver an answer', error));
      else this.server.logger.warn(`Ignoring a JSON-RPC response (id ${String(message.id)}): this server sent no request`);
      return;
    }
    if (!isRequest(message)) {
      if (message.method === 'notifications/cancelled') this.cancel(message.params?.requestId, message.params?.reason);
      return;
    }
    const task = this.answer(message).finally(() => this.running.delete(task));
    this.running.add(task);
  }

  /** The client went away: every call in flight is cancelled. */
  cancelAll(reason: string): void {
    for (const controller of this.inflight.values()) controller.abort(new Error(reason));
  }

  /** Resolves when the calls in flight are done. */
  async settled(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  private cancel(requestId: unknown, reason: unknown): void {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    this.inflight.get(requestId)?.abort(new Error(typeof reason === 'string' ? reason : 'Cancelled by the client'));
  }

  private async answer(request: JsonRpcRequest): Promise<void> {
    const controller = new AbortController();
    if (this.inflight.has(request.id)) {
      await this.send(
        errorResponse(request.id, wireError('INVALID_REQUEST', `Invalid request: id ${String(request.id)} is already in use`)),
      );
      return;
    }
    this.inflight.set(request.id, controller);
    let reply: unknown;
    try {
      reply = { jsonrpc: '2.0', id: request.id, result: await this.dispatch(request, controller.signal) };
    } catch (error) {
      reply = errorResponse(request.id, toWireError(error, this.server.logger));
    } finally {
      this.inflight.delete(request.id);
    }
    // A cancelled request gets no answer: the client has stopped waiting for it.
    if (!controller.signal.aborted) await this.send(reply);
  }

  private async dispatch(request: JsonRpcRequest, signal: AbortSignal): Promise<Record<string, unknown>> {
    const params = request.params ?? {};
    // A request that names its version in _meta is served statelessly as 2026-07-28, even after initialize.
    if (isLegacyMessage(request, { session: this.legacy !== undefined })) {
      // Without a session, the only older message is initialize itself.
      if (this.legacy && request.method !== 'initialize') return this.legacy.handle(request.method, params, signal);
      if (this.legacy) throw wireError('INVALID_REQUEST', 'Invalid request: the session is already initialized');
      this.legacy = new StdioLegacySession(this.server, this.auth, (message) => void this.send(message), params);
      return this.legacy.initialize();
    }
    // stdio has no headers: the _meta envelope alone names the version and the client's capabilities.
    const envelope = readEnvelope(params);
    if (!isKnownMethod(request.method)) throw methodNotFound(request.method);
    // Progress and log notifications go out as lines of their own, before the answer.
    const emit = (method: string, notification: Record<string, unknown>) =>
      void this.send({ jsonrpc: '2.0', method, params: notification });
    const scope = {
      auth: this.auth,
      capabilities: envelope.capabilities,
      signal,
      notifier: createNotifier(isObject(params._meta) ? params._meta : undefined, emit, this.server.logger),
      changes: this.server.changes,
      trace: this.server.telemetry?.request({
        method: request.method,
        era: 'modern',
        params,
        id: request.id,
        version: envelope.version,
        store: 'request-state',
        transport: 'pipe',
      }),
    };
    return traced(scope.trace, handleRequest(this.server, request.method, params, scope));
  }
}
