// Continuation by replay: a task's work that parked at a question runs again from the top, on the instance that
// claimed the answer, with the answers so far and its recorded steps (docs/tasks.md, "Continued by replay"). Every
// answer comes here: tasks/update, the inbox, and an older client's answer on its tasks/result stream.
import type { RequestScope } from '../../model';
import { failure, inboxOf, keepRunning, taskNotifier } from './task-call';
import { runTool } from '../run-tool';
import type { ParleyServer } from '../server';
import type { TaskRecord, TaskRun } from './task-record';
import type { TaskStore } from './task-store';
import { TaskInboxCopies } from './task-inbox';
import { TaskWork } from './task-work';

const CANNOT_RESUME = 'The task cannot be resumed: this server does not serve its tool';

/** The request facts a run of the work keeps: the platform's waitUntil (a Worker's ctx), and the trace it joins. */
type RunFacts = Pick<RequestScope, 'keepAlive' | 'trace'>;

/** What the run's inbox is given as its signal: filing and withdrawing a task's copies wait for nothing. */
const NEVER = new AbortController().signal;

/**
 * Runs the work of a task that keeps what a replay needs (`run`), from the top: its first run (a 2025-11-25 task) or a
 * replay. Resolves once the work started (in the store: listening, the answers that woke it taken in); the run goes on
 * until it parks at the next question without an answer or ends the task, under the request's waitUntil. Rejects when
 * the work could not start (the store failed), with nothing of the task changed.
 */
export async function runTask(
  server: ParleyServer,
  store: TaskStore,
  record: TaskRecord & { run: TaskRun },
  facts: RunFacts,
): Promise<{ run: Promise<unknown> }> {
  const entry = server.tools.get(record.tool)!; // the callers checked
  const { args, auth, capabilities } = record.run;
  const work = await TaskWork.start(store, record, capabilities, inboxOf(server, auth, NEVER, record.tool, facts.keepAlive));
  const scope: RequestScope = {
    auth,
    capabilities,
    changes: server.changes,
    signal: work.signal,
    notifier: taskNotifier(() => work),
    ...(facts.trace ? { trace: facts.trace } : {}),
  };
  const run = runTool(server, { entry, args, scope, asker: work }).then(
    (outcome) => (outcome.kind === 'result' ? work.finish({ status: 'completed', result: { ...outcome.result } }) : undefined),
    (error: unknown) => work.finish(failure(error, server)),
  );
  keepRunning(facts.keepAlive, work, run);
  return { run };
}

/**
 * Replays the claimed work of `taskId` (its owner's, as the answering request showed): execute() runs again with the
 * task's arguments, caller and client capabilities; startTask() resolves at once, answered questions return their
 * answers, recorded steps their results. It parks again at the next question without an answer, or ends the task.
 */
async function replayTask(
  server: ParleyServer,
  store: TaskStore,
  task: { taskId: string; owner: string | undefined },
  facts: RunFacts,
): Promise<{ run: Promise<unknown> } | undefined> {
  const record = await store.record(task.taskId, task.owner);
  if (!record) return undefined;
  const { run } = record;
  if (!run || !server.tools.has(record.tool)) {
    await store.finish(record.taskId, { status: 'failed', error: { code: -32603, message: CANNOT_RESUME }, statusMessage: CANNOT_RESUME });
    return undefined;
  }
  return runTask(server, store, { ...record, run }, facts);
}

/**
 * An answer was taken, or a look found a replay due: this instance claims the parked work (the first claim wins, on
 * any instance) and replays it. A replay that could not start (the store failed) gives the claim back, so the next
 * answer or look continues the task; one whose end could not be written too (its steps are kept: they do not run
 * again). Resolves, once the run parked again or ended, with whether this instance claimed the work; never rejects
 * (a failure is logged).
 */
export async function claimAndReplay(
  server: ParleyServer,
  store: TaskStore,
  task: { taskId: string; owner: string | undefined },
  facts: RunFacts,
): Promise<boolean> {
  let claimed = false;
  let left = 0;
  try {
    // Its record says how long its tokens may live; the replay reads it again once claimed (the run that parked it may
    // have listed its questions since).
    const record = await store.record(task.taskId, task.owner);
    if (!record) return false;
    left = record.createdAt + record.ttlMs - Date.now();
    claimed = await store.claim(task.taskId, left);
    if (claimed) await (await replayTask(server, store, task, facts))?.run;
  } catch (error) {
    server.logger.warn(`A task replay failed: ${String(error)}`);
    if (claimed) await store.giveBack(task.taskId, left).catch(() => undefined);
  }
  return claimed;
}

/**
 * Resumes a task whose stretch of work was cut mid-way (its instance died, or the platform's limit), which a reader on
 * this instance took over in the store: its work replays from the top. Never rejects (a failure is logged; the lease
 * the reader set lapses, and the next reader resumes it again, within tasks.attempts).
 */
export async function resumeTask(
  server: ParleyServer,
  store: TaskStore,
  task: { taskId: string; owner: string | undefined },
  facts: RunFacts,
): Promise<void> {
  try {
    await (await replayTask(server, store, task, facts))?.run;
  } catch (error) {
    server.logger.warn(`A task's resume failed: ${String(error)}`);
  }
}

/** The task ended without its work (a cancel while it was parked): its open questions' copies leave the owner's inbox. */
export async function withdrawCopies(server: ParleyServer, record: TaskRecord | undefined): Promise<void> {
  const inbox = record?.run && inboxOf(server, record.run.auth, NEVER, record.tool);
  if (!inbox || !record) return;
  const copies = new TaskInboxCopies(inbox, record, () => Promise.resolve(false));
  await Promise.all(record.questions.map(([key]) => copies.withdraw(key)));
}
