// tasks/get, tasks/update and tasks/cancel (2026-07-28, io.modelcontextprotocol/tasks). Gates in order: the method
// exists (a server with a task tool, a 2026-07-28 request), the request declared the extension, the params' shape,
// then the store; an unknown, expired or another caller's task is the same -32602.
import { ErrorCode, invalidParams, isObject, McpWireError, methodNotFound } from '../protocol';
import type { RequestScope } from '../server';
import type { Route } from './route';
import type { ParleyServer } from './server';
import { declaresTasks, ownerOf } from './task-call';
import type { TaskStore } from './tasks/task-store';
import { TASKS_EXTENSION, taskAck, taskGetResult } from './tasks/task-wire';

/** -32021 (HTTP 400) with the capability the request lacks, as the core schema types it. */
export const tasksRequired = (what: string): McpWireError =>
  new McpWireError(
    ErrorCode.MissingCapability,
    `${what} needs the ${TASKS_EXTENSION} extension: declare it in this request's _meta clientCapabilities.extensions`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );

// One message for unknown, expired and another caller's: the answer must not tell them apart.
const notFound = () => invalidParams('Task not found: no live task with this id for this caller');

type TaskMethod = (
  store: TaskStore,
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
    return handler(server.tasks, params.taskId, params, scope);
  };

export const TASK_METHODS = {
  'tasks/get': gate('tasks/get', async (store, taskId, _params, scope) => {
    const task = await store.snapshot(taskId, ownerOf(scope));
    if (!task) throw notFound();
    return taskGetResult(task);
  }),
  'tasks/update': gate('tasks/update', async (store, taskId, params, scope) => {
    const { inputResponses } = params;
    if (!isObject(inputResponses)) throw invalidParams('tasks/update needs params.inputResponses, an object of answers by key');
    // An answer is an object (ElicitResult, CreateMessageResult, ListRootsResult); anything else leaves its question open.
    const answers = Object.fromEntries(Object.entries(inputResponses).filter(([, value]) => isObject(value)));
    if ((await store.answer(taskId, ownerOf(scope), answers)) === undefined) throw notFound();
    return taskAck();
  }),
  'tasks/cancel': gate('tasks/cancel', async (store, taskId, _params, scope) => {
    // A task that had already ended is acknowledged too (idempotent, as the conformance suite has it).
    if ((await store.cancel(taskId, ownerOf(scope), 'Cancelled by the client')) === undefined) throw notFound();
    return taskAck();
  }),
};
