// Clients before 2026-07-28 over stdio: initialize opens the one session of this process, and elicit() sends
// elicitation/create on stdout and waits up to ttl for the client's answer, with legacy's own asker and methods.
import {
  callToolWithFallback,
  takesFallback,
  FALLBACK_TOOL,
  callerKey,
  pendingOf,
  StreamAsker,
  watchChanges,
  deliverAnswer,
  initializeResult,
  legacyMethod,
  negotiate,
  type LiveSession,
  findTool,
  runTool,
  type ParleyServer,
} from '../engine';
import { randomBytes, toBase64Url } from '../crypto';
import { META, invalidParams, isObject, type JsonRpcResponse } from '../protocol';
import { createNotifier, type AuthInfo } from '../server';

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
    this.session = { record, calls: new Map(), streams: new Map() };
    // List changes and updates of subscribed resources go out as lines of their own, as on HTTP's GET stream.
    this.session.unwatch = watchChanges(server, this.session, send);
  }

  initializeResult(): Record<string, unknown> {
    return initializeResult(this.server, this.session.record.version);
  }

  async handle(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    if (method !== 'tools/call') return legacyMethod(this.server, method, params, { session: this.session, auth: this.auth, signal });
    const { sessionId, capabilities } = this.session.record;
    // A client that declared no elicitation has its questions asked through the fallback (a question comes back as a
    // pending result); its progress and logs go out as lines all the same.
    const fallback = takesFallback(this.server, params.name, capabilities);
    if (fallback && typeof params.name !== 'string') throw invalidParams('tools/call needs params.name, a string');
    const found =
      fallback && params.name === FALLBACK_TOOL && !this.server.tools.has(FALLBACK_TOOL) ? undefined : findTool(this.server, params);
    // The call's own signal: it fires when the client cancels, and once the call is over, so that questions it left
    // waiting (one of a Promise.all that failed) free their places in elicitation.pending.
    const call = new AbortController();
    const cancel = () => call.abort(signal.reason);
    signal.addEventListener('abort', cancel, { once: true });
    const asker = new StreamAsker({
      sessionId,
      caller: this.session.record.caller,
      capabilities,
      pending: pendingOf(this.server),
      send: this.send,
      signal: call.signal,
    });
    // Progress and log notifications go out as lines of their own, at the level the session set.
    const meta = { ...(isObject(params._meta) ? params._meta : {}), [META.logLevel]: this.session.logLevel };
    const emit = (method: string, notification: Record<string, unknown>) => this.send({ jsonrpc: '2.0', method, params: notification });
    const notifier = createNotifier(meta, emit, this.server.logger);
    try {
      if (fallback) {
        const args = found?.args ?? (isObject(params.arguments) ? params.arguments : {});
        const through = { notifier, capabilities, request: asker.request.bind(asker) };
        return await callToolWithFallback(this.server, params.name as string, args, {
          auth: this.auth,
          sessionId,
          signal: call.signal,
          through,
        });
      }
      const { entry, args } = found!;
      const outcome = await runTool(this.server, entry, args, {
        auth: this.auth,
        signal: call.signal,
        asker,
        capabilities,
        notifier,
        changes: this.server.changes,
      });
      return outcome.kind === 'result' ? outcome.result : {};
    } finally {
      signal.removeEventListener('abort', cancel);
      call.abort();
    }
  }

  /** The client's answer to an elicitation/create this process sent. */
  async receive(message: JsonRpcResponse): Promise<void> {
    const delivery = await deliverAnswer(this.server, this.session, message);
    // stdio has no way to answer a response: the log says it reached nobody.
    if (delivery !== 'delivered') this.server.logger.warn(`Ignored an answer (id ${JSON.stringify(message.id)}) that no call waits for`);
  }
}
