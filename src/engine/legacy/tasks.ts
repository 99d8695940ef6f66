// 2025-11-25's experimental core tasks over the same store as 2026-07-28's: a tools/call with params.task becomes a
// task at once (the client opted in), its work parks at a question as 2026-07-28's does, tasks/result waits for its
// end and asks its open questions on its own stream (an answer there continues the work by replay, on the instance
// holding that stream), tasks/get, tasks/list and tasks/cancel answer with the bare Task.
import { invalidParams, McpWireError } from '../../protocol';
import type { LegacyTaskRuntime } from '../server';
import type { TaskFollowers } from '../tasks/task-followers';
import { claimAndReplay, runTask, withdrawCopies } from '../tasks/task-replay';
import type { TaskStore } from '../tasks/task-store';
import { legacyCreateTaskResult, legacyTask, legacyTaskOutcome, relatedTaskMeta } from '../tasks/task-wire';
import { watchTaskStatus } from './task-status';

// One message for unknown, expired and another caller's: the answer must not tell them apart.
const notFound = () => invalidParams('Task not found: no live task with this id for this caller');

/** The older era's side of the task runtime, over `store`. */
export function legacyTaskRuntime(store: TaskStore, followers: TaskFollowers): LegacyTaskRuntime {
  return {
    async call(server, { entry, args }, owner, scope) {
      const { auth, capabilities } = scope;
      // What its replays run with; the caller's token is not kept.
      const run = { args, auth: { ...auth, token: undefined }, capabilities };
      const record = await store.create({ owner, tool: entry.name, run });
      // The work runs on after the response (a Worker's waitUntil holds it), until it parks at a question or ends.
      await runTask(server, store, { ...record, run }, scope);
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
    async cancel(server, taskId, owner) {
      // Its record before the end drops what finds the inbox (its caller), when a copy may be there.
      const record = server.questions ? await store.record(taskId, owner) : undefined;
      const done = await store.cancel(taskId, owner, 'Cancelled by the client');
      if (done === undefined) throw notFound();
      if (done === 'ended') throw invalidParams('The task has already ended: it cannot be cancelled');
      await withdrawCopies(server, record);
      const task = await store.snapshot(taskId, owner);
      if (!task) throw notFound();
      return legacyTask(task);
    },
    async result(server, { taskId, owner, keepAlive }, ask, signal) {
      const which = { taskId, owner };
      // Answered work is claimed and replayed here; the replay runs on after this stream (a Worker's waitUntil holds it).
      const replay = () => {
        const replayed = claimAndReplay(server, store, which, { keepAlive });
        keepAlive?.waitUntil(replayed);
      };
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
          // A replay that failed gave its claim back: this look continues it.
          if (task.replayDue) replay();
          for (const [key, request] of task.inputRequests ?? []) {
            if (asked.has(key)) continue;
            asked.add(key);
            const params = { ...request.params, _meta: { ...(request.params._meta as object), ...relatedTaskMeta(taskId) } };
            // An answer the client refuses to give (or a stream that ends) leaves the question open for the next tasks/result.
            void ask(key, { method: request.method, params })
              .then((answer) => store.answer(taskId, owner, { [key]: answer }))
              .then((taken) => taken?.length && replay())
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
    announce: (sessionId, taskId) => store.sessions.announce(sessionId, taskId),
    watchStatus: (session, auth, logger, send) => watchTaskStatus(followers, session, auth, logger, send),
  };
}
