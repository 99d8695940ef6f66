// tools/call on every transport, the one assembly: find the tool (or the fallback's answer), then run it with its
// questions asked the request's way. The 2026-07-28 methods, an older client's session (legacy/tool-call.ts),
// connect() and createDirect() all come through here.
import { invalidParams, isObject, type McpWireError, wireError } from '../protocol';
import type { RequestScope, ToolEntry } from '../model';
import { runAsking, runSealed, sendElicitationResult, type FallbackSession } from './fallback';
import { FALLBACK_TOOL } from './fallback-tool';
import { routed, type Route } from './route';
import { runTool } from './run-tool';
import type { ParleyServer } from './server';
import { declaresTasks, tasksRequired } from './tasks/task-methods';

/** A call found: its tool, or none when it answers the fallback (sendElicitationResult). */
interface ToolCall {
  name: string;
  entry?: ToolEntry;
  args: Record<string, unknown>;
}

/** The call's route, or the fallback: a question ends the call with a pending result that sendElicitationResult answers. */
export type Questions = Route | ({ via: 'fallback' } & FallbackSession);

/** Finds the tool and checks the shape of its arguments, throwing -32602 before anything is sent. */
export function findCall(server: ParleyServer, params: Record<string, unknown>): ToolCall {
  const { name, arguments: args = {} } = params;
  if (typeof name !== 'string') throw invalidParams('tools/call needs params.name, a string');
  // The fallback's answer tool is listed only to clients that need it, but it answers whoever calls it.
  if (name === FALLBACK_TOOL && !server.tools.has(name)) return { name, args: isObject(args) ? args : {} };
  const entry = server.tools.get(name);
  if (!entry) throw invalidParams(`Unknown tool: ${name}`);
  if (!isObject(args)) throw invalidParams('params.arguments must be an object');
  return { name, entry, args };
}

/** Not async, as `routed` is not: the call's promise is the route's own. */
export function callTool(
  server: ParleyServer,
  call: ToolCall,
  scope: RequestScope,
  questions: Questions,
): Promise<Record<string, unknown>> {
  const { entry, args } = call;
  if (!entry) return sendElicitationResult(server, args, scope, questions);
  const support = entry.options.execution?.taskSupport;
  // Fast path: most tools never run as a task.
  if (support === 'optional' || support === 'required') {
    if (questions.via === 'rounds' && server.tasks && declaresTasks(scope.capabilities))
      return server.tasks.call(server, { entry, args, params: questions.params }, scope);
    if (support === 'required') return Promise.reject(requiredTask(entry.name, questions.via));
  }
  if (questions.via === 'fallback') return runAsking(server, { entry, args, scope }, { answers: {} }, questions);
  // 2026-07-28 without the elicitation capability: a question takes the fallback, not -32021 (one check per call).
  if (questions.via === 'rounds' && !isObject(scope.capabilities.elicitation) && server.config.elicitation.enabled)
    return runSealed(server, { entry, args, scope }, { answers: {} }, questions, { name: entry.name, args });
  return routed(server, scope, questions, { method: 'tools/call', name: entry.name, args }, (asker) =>
    runTool(server, { entry, args, scope, asker }),
  );
}

/**
 * A tool that runs only as a task, called without one: -32021 on 2026-07-28, -32601 where the call cannot be a task
 * (in-process, or an older client's call without params.task).
 */
function requiredTask(name: string, via: Questions['via']): McpWireError {
  if (via === 'rounds' || via === 'nobody') return tasksRequired(`Tool "${name}" runs only as a task: it`);
  return wireError('METHOD_NOT_FOUND', `Tool "${name}" runs only as a task: call it with params.task (2025-11-25) or on 2026-07-28`);
}
