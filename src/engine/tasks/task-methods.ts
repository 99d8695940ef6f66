// tasks/get, tasks/update and tasks/cancel (2026-07-28, io.modelcontextprotocol/tasks), as far as every server needs
// them: the checks in order (the method exists on a server with a task tool and a 2026-07-28 request, the request
// declared the extension, the params' shape) before the task runtime (loaded only where tasks exist) looks in the store.
import { invalidParams, isObject, type McpWireError, methodNotFound, wireError } from '../../protocol';
import type { RequestScope } from '../../model';
import type { Route } from '../route';
import type { ParleyServer, TaskRuntime } from '../server';
import { TASKS_EXTENSION } from './task-wire';

/** Whether this request's own _meta declared the tasks extension (the key is enough; its value has no settings yet). */
export function declaresTasks(capabilities: Record<string, unknown>): boolean {
  const extensions = capabilities.extensions;
  return isObject(extensions) && Object.hasOwn(extensions, TASKS_EXTENSION);
}

/** -32021 (HTTP 400) with the capability the request lacks, as the core schema types it. */
export const tasksRequired = (what: string): McpWireError =>
  wireError(
    'MISSING_CAPABILITY',
    `${what} needs the ${TASKS_EXTENSION} extension: declare it in this request's _meta clientCapabilities.extensions`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );

type TaskMethod = (
  server: ParleyServer & { tasks: TaskRuntime },
  taskId: string,
  params: Record<string, unknown>,
  scope: RequestScope,
) => Promise<Record<string, unknown>>;

const gate =
  (method: string, handler: TaskMethod) =>
  (server: ParleyServer, params: Record<string, unknown>, scope: RequestScope, route: Route): Promise<Record<string, unknown>> => {
    if (!server.tasks || route.via !== 'rounds') throw methodNotFound(method);
    if (!declaresTasks(scope.capabilities)) throw tasksRequired(method);
    if (typeof params.taskId !== 'string') throw invalidParams(`${method} needs params.taskId, a string`);
    return handler(server as ParleyServer & { tasks: TaskRuntime }, params.taskId, params, scope);
  };

export const TASK_METHODS = {
  'tasks/get': gate('tasks/get', (server, taskId, _params, scope) => server.tasks.get(server, taskId, scope)),
  'tasks/update': gate('tasks/update', (server, taskId, params, scope) => {
    const { inputResponses } = params;
    if (!isObject(inputResponses)) throw invalidParams('tasks/update needs params.inputResponses, an object of answers by key');
    return server.tasks.update(server, taskId, inputResponses, scope);
  }),
  'tasks/cancel': gate('tasks/cancel', (server, taskId, _params, scope) => server.tasks.cancel(server, taskId, scope)),
};
