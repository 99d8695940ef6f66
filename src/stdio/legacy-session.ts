// Clients before 2026-07-28 over stdio: initialize opens the one session of this process, and elicit() sends
// elicitation/create on stdout and waits up to ttl for the client's answer, with legacy's own asker and methods.
import {
  callerKey,
  watchChanges,
  deliverAnswer,
  initializeResult,
  legacyMethod,
  negotiate,
  prepareTaskResult,
  prepareToolCall,
  type LiveSession,
  type ParleyServer,
} from '../engine';
import { randomBytes, toBase64Url } from '../crypto';
import { isObject, type JsonRpcResponse } from '../protocol';
import type { AuthInfo } from '../model';

export class StdioLegacySession {
  private readonly session: LiveSession;

  constructor(
    private readonly server: ParleyServer,
    private readonly auth: AuthInfo,
    private readonly send: (message: unknown) => void,
    params: Record<string, unknown>,
  ) {
    const now = Date.now();
    const record = {
      sessionId: toBase64Url(randomBytes(24)),
      createdAt: now,
      // A stdio process serves one client: the session lasts as long as the process.
      expiresAt: Number.MAX_SAFE_INTEGER,
      version: negotiate(params.protocolVersion),
      caller: callerKey(auth),
      capabilities: isObject(params.capabilities) ? params.capabilities : {},
      clientInfo: params.clientInfo,
    };
    this.session = { record, calls: new Map() };
    // List changes and updates of subscribed resources go out as lines of their own, as on HTTP's GET stream.
    this.session.unwatch = watchChanges(server, this.session, send);
  }

  /** The initialize result, once the session's tasks are followed: their changes go out as lines (notifications/tasks/status). */
  async initialize(): Promise<Record<string, unknown>> {
    await this.server.tasks?.legacy.watchStatus(this.session, this.auth, this.server.logger, this.send);
    return initializeResult(this.server, this.session.record.version);
  }

  async handle(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    if (method !== 'tools/call' && method !== 'tasks/result')
      return legacyMethod(this.server, method, params, { session: this.session, auth: this.auth, signal });
    // tasks/result (2025-11-25) waits for its task and asks the task's questions as lines, as a call asks its own.
    const prepare = method === 'tasks/result' ? prepareTaskResult : prepareToolCall;
    const call = prepare(this.server, this.session, params, this.auth);
    // The call's own signal: it fires when the client cancels, and once the call is over, so that questions it left
    // waiting (one of a Promise.all that failed) free their places in elicitation.pending.
    const own = new AbortController();
    const cancel = () => own.abort(signal.reason);
    signal.addEventListener('abort', cancel, { once: true });
    // Questions, progress and log notifications go out as lines of their own.
    const emit = (method: string, notification: Record<string, unknown>) => this.send({ jsonrpc: '2.0', method, params: notification });
    try {
      return await call.run({ auth: this.auth, signal: own.signal, send: this.send, emit });
    } finally {
      signal.removeEventListener('abort', cancel);
      own.abort();
    }
  }

  /** The client's answer to an elicitation/create this process sent. */
  async receive(message: JsonRpcResponse): Promise<void> {
    const delivery = await deliverAnswer(this.server, this.session, message);
    // stdio has no way to answer a response: the log says it reached nobody.
    if (delivery !== 'delivered') this.server.logger.warn(`Ignored an answer (id ${JSON.stringify(message.id)}) that no call waits for`);
  }
}
