// parley-mcp/tasks: puts tasks' code into an edge bundle (a Worker's), which leaves it out so that a Worker without a
// task tool stays small. The bundler follows the import() below only from an entry that calls enableTasks().
import { provideTasks } from './provided-tasks';

/**
 * Puts tasks into this Worker: a tool with `execution.taskSupport` runs as a task there, its work under the request's
 * `ctx.waitUntil`, its record in the elicitation store (on Workers, Redis over HTTP: enableRedisHttp()). On Node tasks
 * load without it, so the call changes nothing there.
 * @example import { enableTasks } from 'parley-mcp/tasks'; enableTasks(); export default createWorker(config);
 */
export function enableTasks(): void {
  provideTasks(() => import('../engine/tasks/task-runtime'));
}
