// 2025-11-25's experimental core tasks over the same store as 2026-07-28's: a tools/call with params.task becomes a
// task at once (the client opted in), tasks/result waits for its end and asks its open questions on its own stream,
// tasks/get, tasks/list and tasks/cancel answer with the bare Task.
import { invalidParams, McpWireError } from '../../protocol';
import type { Notifier } from '../../model';
import { failure, inboxOf, keepRunning } from '../tasks/task-call';
import type { LegacyTaskRuntime } from '../server';
import { runTool } from '../run-tool';
import type { TaskFollowers } from '../tasks/task-followers';
import type { TaskStore } from '../tasks/task-store';
import { legacyCreateTaskResult, legacyTask, legacyTaskOutcome, relatedTaskMeta } from '../tasks/task-wire';
import { watchTaskStatus } from './task-status';
import { TaskWork } from '../tasks/task-work';

// One message for unknown, expired and another caller's: the answer must not tell them apart.
const notFound = () => invalidParams('Task not found: no live task with this id for this caller');

/** The older era's side of the task runtime, over `store`. */
export function legacyTaskRuntime(store: TaskStore, followers: TaskFollowers): LegacyTaskRuntime {
  return {
    async call(server, { entry, args }, owner, scope) {
      const record = await store.create({ owner, tool: entry.name });
      const work = await TaskWork.start(store, record, scope.capabilities, inboxOf(server, scope.auth, scope.signal, entry.name));
      // Progress becomes the task's status message; log lines have no stream to go to once the call answered.
      const notifier: Notifier = {
        progress: (progress, total, message) =>
          void work.progress(message ?? (total === undefined ? `${progress}` : `${progress}/${total}`)).catch(() => undefined),
        log: () => undefined,
      };
      const run = runTool(server, { entry, args, scope: { ...scope, signal: work.signal, notifier }, asker: work }).then(
        (outcome) =>
          work.finish(
            outcome.kind === 'result'
              ? { status: 'completed', result: { ...outcome.result } }
              : { status: 'failed', error: { code: -32603, message: 'The tool suspended inside a task' } },
          ),
        (error: unknown) => work.finish(failure(error, server)),
      );
      // The run outlives the response: a Worker would stop it with the response otherwise, and cuts it some time after.
      keepRunning(
        scope.keepAlive,
        work,
        run.catch(() => work.close()),
      );
      return legacyCreateTaskResult({ ...record, status: 'working' });
    },
    async get(taskId, owner) {
      const task = await store.snapshot(taskId, owner);
      if (!task) throw notFound();
      return legacyTask(task);
    },
    async list(owner) {
      return { tasks: (await store.list(owner)).map(legacyTask) };
    },
    async cancel(taskId, owner) {
      const done = await store.cancel(taskId, owner, 'Cancelled by the client');
      if (done === undefined) throw notFound();
      if (done === 'ended') throw invalidParams('The task has already ended: it cannot be cancelled');
      const task = await store.snapshot(taskId, owner);
      if (!task) throw notFound();
      return legacyTask(task);
    },
    async result(taskId, owner, ask, signal) {
      const asked = new Set<string>();
      let wake: (() => void) | undefined;
      // An end or an answer is heard at once; a new question shows at the next look, a poll interval later at most.
      const unlisten = await store.listen(taskId, () => wake?.());
      try {
        for (;;) {
          signal.throwIfAborted();
          const task = await store.snapshot(taskId, owner);
          if (!task) throw notFound();
          const outcome = legacyTaskOutcome(task);
          if (outcome && 'result' in outcome) return outcome.result;
          if (outcome) throw new McpWireError(outcome.error.code, outcome.error.message, outcome.error.data);
          if (task.status === 'cancelled') throw invalidParams('The task was cancelled: it has no result');
          for (const [key, request] of task.inputRequests ?? []) {
            if (asked.has(key)) continue;
            asked.add(key);
            const params = { ...request.params, _meta: { ...(request.params._meta as object), ...relatedTaskMeta(taskId) } };
            // An answer the client refuses to give (or a stream that ends) leaves the question open for the next tasks/result.
            void ask(key, { method: request.method, params })
              .then((answer) => store.answer(taskId, owner, { [key]: answer }))
              .catch(() => asked.delete(key));
          }
          await new Promise<void>((resolve) => {
            const done = () => {
              clearTimeout(timer);
              signal.removeEventListener('abort', done);
              resolve();
            };
            const timer = setTimeout(done, task.pollIntervalMs);
            wake = done;
            signal.addEventListener('abort', done, { once: true });
          });
        }
      } finally {
        await unlisten();
      }
    },
    announce: (sessionId, taskId) => store.announce(sessionId, taskId),
    watchStatus: (session, auth, logger, send) => watchTaskStatus(followers, session, auth, logger, send),
  };
}
