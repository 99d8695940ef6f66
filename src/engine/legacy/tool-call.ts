// An older client's tools/call, on any transport (HTTP's call stream, stdio's lines): the tool found and its arguments
// checked first, then callTool with its questions sent on the session's stream, or through the fallback when the
// client declared no elicitation.
import { isObject, META } from '../../protocol';
import type { RequestTrace } from '../../runtime';
import { createNotifier, type AuthInfo, type Emit } from '../../model';
import { callTool, findCall } from '../call-tool';
import { requireScopes } from '../scope-check';
import { takesFallback } from '../fallback';
import type { ParleyServer } from '../server';
import { StreamAsker } from './stream-asker';
import type { LiveSession } from './sessions';

/** What the transport gives the call: its caller, its signal (the call's own), where questions and notifications go. */
export interface LegacyCallIo {
  auth: AuthInfo;
  signal: AbortSignal;
  /** Sends a server-to-client request (elicitation/create, sampling, roots) on a stream the client reads. */
  send(message: unknown): void;
  /** Sends the call's notifications (progress, log lines); absent, they are dropped. */
  emit?: Emit;
  trace?: RequestTrace;
}

export interface LegacyToolCall {
  /** Runs the tool to its result (an older client's call never suspends). */
  run(io: LegacyCallIo): Promise<Record<string, unknown>>;
}

/** Finds the tool and checks its arguments, throwing before anything is sent; `run` does the rest. */
export function prepareToolCall(
  server: ParleyServer,
  session: LiveSession,
  params: Record<string, unknown>,
  auth: AuthInfo,
): LegacyToolCall {
  const { sessionId, capabilities: declared } = session.record;
  const capabilities = isObject(declared) ? declared : {};
  const call = findCall(server, params);
  // Before the call's stream opens, so a missing scope is an HTTP 403 the client can step up from (checked again at run).
  if (call.entry) requireScopes(server, auth, call.entry.options.scopes, call.args, `tool "${call.name}"`);
  return {
    async run({ auth, signal, send, emit, trace }) {
      const asker = new StreamAsker({
        sessionId,
        caller: session.record.caller,
        capabilities,
        pending: server.legacy.pending,
        send,
        signal,
      });
      // Progress and log lines at the level the session set (logging/setLevel), unless the request names its own.
      const meta = { ...(isObject(params._meta) ? params._meta : {}), [META.logLevel]: session.logLevel };
      const notifier = createNotifier(meta, emit, server.logger);
      // A caller with no token is known by its session: that is the subject of its persistent questions.
      const known = auth.anonymous ? { ...auth, sessionId } : auth;
      const scope = { auth: known, signal, capabilities, notifier, changes: server.changes, trace };
      return callTool(
        server,
        call,
        scope,
        takesFallback(server, call.name, capabilities)
          ? { via: 'fallback', sessionId, request: asker.request.bind(asker) }
          : { via: 'asker', asker },
      );
    },
  };
}
