// A task on the wire of each era, as small functions over a snapshot: 2026-07-28's flat CreateTaskResult and
// DetailedTask (questions, result or error inlined), and 2025-11-25's nested CreateTaskResult and bare Task. No
// requestState on any of them: a task's state lives in the store, keyed by its id.
import type { InputRequest, TaskSnapshot, TaskStatus } from './task-record';

/** The extension's name, in `_meta` client capabilities and in server/discover. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** 2025-11-25's key that ties a message to its task. */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

const iso = (ms: number): string => new Date(ms).toISOString();

/** The questions as the wire's map: built from entries, so a key named `__proto__` is an own key like any other. */
const requestMap = (entries: [string, InputRequest][]): Record<string, InputRequest> => Object.fromEntries(entries);

/** The Task fields of 2026-07-28, common to the create result, tasks/get and notifications/tasks. */
function modernTask(task: TaskSnapshot): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: iso(task.createdAt),
    lastUpdatedAt: iso(task.lastUpdatedAt),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
}

/** 2026-07-28 `tools/call` answered with a task: flat, `resultType: "task"`, nothing inlined. */
export const createTaskResult = (task: TaskSnapshot): Record<string, unknown> => ({ resultType: 'task', ...modernTask(task) });

/**
 * 2026-07-28 DetailedTask (the params of notifications/tasks): the Task and what its status carries, every open
 * question for `input_required`, the tool's result for `completed` (with `resultType: "complete"`, as the call itself
 * would have answered), the JSON-RPC error for `failed`.
 */
export function detailedTask(task: TaskSnapshot): Record<string, unknown> {
  const out = modernTask(task);
  if (task.status === 'input_required' && task.inputRequests) out.inputRequests = requestMap(task.inputRequests);
  if (task.status === 'completed' && task.result) out.result = { resultType: 'complete', ...withoutKey(task.result, 'resultType') };
  if (task.status === 'failed' && task.error) out.error = { ...task.error };
  return out;
}

/** 2026-07-28 `tasks/get` result. */
export const taskGetResult = (task: TaskSnapshot): Record<string, unknown> => ({ resultType: 'complete', ...detailedTask(task) });

/** 2026-07-28 `tasks/update` and `tasks/cancel` results: an empty acknowledgement. */
export const taskAck = (): Record<string, unknown> => ({ resultType: 'complete' });

/** What 2025-11-25 calls a status: a tool result with `isError` made the task `failed` there. */
export function legacyStatus(task: TaskSnapshot): TaskStatus {
  return task.status === 'completed' && task.result?.isError === true ? 'failed' : task.status;
}

/** 2025-11-25 Task (the `tasks/get` and `tasks/cancel` result, a `tasks/list` entry, notifications/tasks/status). */
export function legacyTask(task: TaskSnapshot): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: legacyStatus(task),
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: iso(task.createdAt),
    lastUpdatedAt: iso(task.lastUpdatedAt),
    ttl: task.ttlMs,
    pollInterval: task.pollIntervalMs,
  };
}

/** 2025-11-25 `tools/call` answered with a task: nested under `task`. */
export const legacyCreateTaskResult = (task: TaskSnapshot): Record<string, unknown> => ({ task: legacyTask(task) });

/**
 * 2025-11-25 `tasks/result` of an ended task: the tool's result tagged with its task, or, for a failed one, its
 * JSON-RPC error to answer with; undefined while it has not ended (the caller waits) and for a cancelled task.
 */
export function legacyTaskOutcome(
  task: TaskSnapshot,
): { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } } | undefined {
  if (task.status === 'completed' && task.result) {
    const meta = isRecord(task.result._meta) ? task.result._meta : {};
    const result = withoutKey(task.result, 'resultType');
    return { result: { ...result, _meta: { ...meta, [RELATED_TASK]: { taskId: task.taskId } } } };
  }
  if (task.status === 'failed' && task.error) return { error: { ...task.error } };
  return undefined;
}

/** The 2025-11-25 tag of an in-task request or answer (`params._meta` of elicitation/create). */
export const relatedTaskMeta = (taskId: string): Record<string, unknown> => ({ [RELATED_TASK]: { taskId } });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function withoutKey(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _, ...rest } = value;
  return rest;
}
