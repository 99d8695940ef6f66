// Continuation by replay: a task's work that parked at a question runs again from the top, on the instance that
// claimed the answer, with the answers so far and its recorded steps (docs/tasks.md, "Continued by replay").
import type { RequestScope } from '../../model';
import { failure, keepRunning, taskNotifier } from './task-call';
import { runTool } from '../run-tool';
import type { ParleyServer } from '../server';
import type { TaskStore } from './task-store';
import { TaskWork } from './task-work';

const CANNOT_RESUME = 'The task cannot be resumed: this server does not serve its tool';

/**
 * Replays the claimed work of `taskId` (its owner's, as the answering request showed): execute() runs again with the
 * task's arguments, caller and client capabilities; startTask() resolves at once, answered questions return their
 * answers, recorded steps their results. It parks again at the next question without an answer, or ends the task.
 */
export async function replayTask(
  server: ParleyServer,
  store: TaskStore,
  task: { taskId: string; owner: string | undefined },
  keepAlive: RequestScope['keepAlive'],
): Promise<void> {
  const record = await store.record(task.taskId, task.owner);
  if (!record) return;
  const entry = record.run && server.tools.get(record.tool);
  if (!record.run || !entry) {
    await store.finish(record.taskId, { status: 'failed', error: { code: -32603, message: CANNOT_RESUME }, statusMessage: CANNOT_RESUME });
    return;
  }
  const { args, auth, capabilities } = record.run;
  const work = await TaskWork.start(store, record, capabilities, undefined, true);
  const scope: RequestScope = { auth, capabilities, changes: server.changes, signal: work.signal, notifier: taskNotifier(() => work) };
  const run = runTool(server, { entry, args, scope, asker: work }).then(
    (outcome) => (outcome.kind === 'result' ? work.finish({ status: 'completed', result: outcome.result }) : undefined),
    (error: unknown) => work.finish(failure(error, server)),
  );
  keepRunning(keepAlive, work, run);
  await run;
}
