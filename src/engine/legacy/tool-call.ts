// An older client's tools/call, on any transport (HTTP's call stream, stdio's lines): the tool found and its arguments
// checked first, then callTool with its questions sent on the session's stream, or through the fallback when the
// client declared no elicitation.
import { invalidParams, isObject, META, wireError } from '../../protocol';
import type { RequestTrace } from '../../runtime';
import { createNotifier, type AuthInfo, type Emit } from '../../model';
import { ELICIT_METHOD, type ElicitParams, type OtherInputMethod } from '../../elicitation';
import { callTool, findCall } from '../call-tool';
import { requireScopes } from '../scope-check';
import { takesFallback } from '../fallback';
import type { KeepAlive, ParleyServer } from '../server';
import { legacyTaskOwner } from './methods';
import { StreamAsker } from './stream-asker';
import type { LiveSession } from './sessions';

/** What the transport gives the call: its caller, its signal (the call's own), where questions and notifications go. */
interface LegacyCallIo {
  auth: AuthInfo;
  signal: AbortSignal;
  /** Sends a server-to-client request (elicitation/create, sampling, roots) on a stream the client reads. */
  send(message: unknown): void;
  /** Sends the call's notifications (progress, log lines); absent, they are dropped. */
  emit?: Emit;
  trace?: RequestTrace;
  /** A Worker's ctx.waitUntil: a task's work outlives the call's response. */
  keepAlive?: KeepAlive;
}

interface LegacyToolCall {
  /** Runs the tool to its result (an older client's call never suspends). */
  run(io: LegacyCallIo): Promise<Record<string, unknown>>;
}

/** The session's asker on a call's stream: questions go out on `send` and wait in elicitation.pending. */
function streamAsker(server: ParleyServer, session: LiveSession, send: (message: unknown) => void, signal: AbortSignal): StreamAsker {
  const { sessionId, caller, capabilities } = session.record;
  return new StreamAsker({
    sessionId,
    caller,
    capabilities: isObject(capabilities) ? capabilities : {},
    pending: server.legacy.pending,
    send,
    signal,
  });
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
  const { entry } = call;
  // 2025-11-25: the client asks for a task with params.task, on a tool whose execution.taskSupport allows one.
  if (isObject(params.task) && entry && server.tasks) {
    const support = entry.options.execution?.taskSupport ?? 'forbidden';
    if (support === 'forbidden')
      throw wireError('METHOD_NOT_FOUND', `Tool "${call.name}" does not run as a task: call it without params.task`);
    const tasks = server.tasks.legacy;
    return {
      run: async ({ auth, signal, keepAlive, trace }) => {
        const notifier = createNotifier(undefined, undefined, server.logger);
        // As for a call: a caller with no token is known by its session (the inbox its task's questions may go to).
        const known = auth.anonymous ? { ...auth, sessionId } : auth;
        const scope = { auth: known, signal, capabilities, notifier, changes: server.changes, trace, keepAlive };
        const created = await tasks.call(server, { entry, args: call.args }, legacyTaskOwner(auth, session), scope);
        // For notifications/tasks/status: the instance holding the session's GET stream follows the task.
        if (isObject(created.task) && typeof created.task.taskId === 'string')
          await tasks.announce(session.record.sessionId, created.task.taskId);
        return created;
      },
    };
  }
  return {
    // Not async: the call's promise is callTool's own, not another one resolved with it (a waiting call holds it).
    run({ auth, signal, send, emit, trace, keepAlive }) {
      try {
        const asker = streamAsker(server, session, send, signal);
        // Progress and log lines at the level the session set (logging/setLevel), unless the request names its own.
        const meta = { ...(isObject(params._meta) ? params._meta : {}), [META.logLevel]: session.logLevel };
        const notifier = createNotifier(meta, emit, server.logger);
        // A caller with no token is known by its session: that is the subject of its persistent questions.
        const known = auth.anonymous ? { ...auth, sessionId } : auth;
        const scope = { auth: known, signal, capabilities, notifier, changes: server.changes, trace, keepAlive };
        return callTool(
          server,
          call,
          scope,
          takesFallback(server, call.name, capabilities)
            ? { via: 'fallback', sessionId, request: asker.request.bind(asker) }
            : { via: 'asker', asker },
        );
      } catch (error) {
        return Promise.reject(error); // a bad log level in _meta: the call's error, on its stream
      }
    },
  };
}

/** tasks/result (2025-11-25): waits for the task's end on the call's stream, where its questions are asked meanwhile. */
export function prepareTaskResult(
  server: ParleyServer,
  session: LiveSession,
  params: Record<string, unknown>,
  _auth: AuthInfo,
): LegacyToolCall {
  const tasks = server.tasks?.legacy;
  if (!tasks) throw wireError('METHOD_NOT_FOUND', 'Method not found: tasks/result');
  const { taskId } = params;
  if (typeof taskId !== 'string') throw invalidParams('tasks/result needs params.taskId, a string');
  return {
    run({ auth, signal, send, keepAlive }) {
      const asker = streamAsker(server, session, send, signal);
      const ask = (key: string, { method, params }: { method: string; params: Record<string, unknown> }) =>
        method === ELICIT_METHOD
          ? asker.ask(key, params as unknown as ElicitParams, {})
          : asker.request(key, method as OtherInputMethod, params);
      return tasks.result(server, { taskId, owner: legacyTaskOwner(auth, session), keepAlive }, ask, signal);
    },
  };
}
