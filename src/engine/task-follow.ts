// Following tasks for the streams that asked to hear of them (a 2026-07-28 listen stream's taskIds, a 2025-11-25
// session's own tasks): each task's channel is heard (changes made on other instances too, where the store has
// pub/sub; else the task is read every poll interval as well), the task is read again on each event, and it is sent
// when what a client sees of it changed. Nothing is followed past the task's end.
import type { TaskSnapshot } from './tasks/task-record';
import type { TaskStore } from './tasks/task-store';

/** One stream's follow of some tasks: the ones it found (live, the caller's), sent from begin() on until stop(). */
export interface TaskFollow {
  /** The ids followed: of those asked for, the live tasks of this caller (an unknown id is left out, not an error). */
  readonly taskIds: string[];
  /** Sends each followed task as it is now, then each change: called once the stream has sent what must come first. */
  begin(): void;
  stop(): void;
}

const ENDED: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** What a client sees change: the status, its message and the open questions (a settled answer alone is no news). */
const looks = (task: TaskSnapshot): string =>
  JSON.stringify([task.status, task.statusMessage ?? null, (task.inputRequests ?? []).map(([key]) => key)]);
/** How a task just created looks: its create result said as much. */
const WORKING = JSON.stringify(['working', null, []]);

/** What to follow, for whom, and where it goes. */
interface FollowRequest {
  store: TaskStore;
  taskIds: readonly string[];
  /** The caller's subject; undefined when anonymous (an anonymous task belongs to whoever holds its id). */
  owner: string | undefined;
  send: (task: TaskSnapshot) => void;
  /** The tasks were just created, and their client knows them `working` from the create result: only a change is sent. */
  fresh?: boolean;
  /** Called once nothing is followed any more: every task ended or expired, or stop() was called. */
  onEnd?: () => void;
}

/** Follows the tasks of `request`: the caller's live ones among its ids. */
export async function followTasks({ store, taskIds, owner, send, fresh = false, onEnd }: FollowRequest): Promise<TaskFollow> {
  const unlisten = new Map<string, () => Promise<void>>();
  const sent = new Map<string, string>(fresh ? taskIds.map((taskId) => [taskId, WORKING]) : []);
  // Reads of one task run one after another, so what is sent keeps the order the store went through.
  const reads = new Map<string, Promise<void>>();
  let live = false;
  let timer: ReturnType<typeof setInterval> | undefined;

  const drop = (taskId: string) => {
    void unlisten
      .get(taskId)?.()
      .catch(() => undefined);
    if (!unlisten.delete(taskId) || unlisten.size > 0) return;
    clearInterval(timer);
    onEnd?.();
  };
  const look = (taskId: string) => {
    if (!live || !unlisten.has(taskId)) return;
    const next = (reads.get(taskId) ?? Promise.resolve()).then(async () => {
      if (!live || !unlisten.has(taskId)) return;
      const task = await store.snapshot(taskId, owner);
      if (!live || !unlisten.has(taskId)) return;
      if (!task) return drop(taskId); // expired: nothing more will change
      const seen = looks(task);
      if (sent.get(taskId) !== seen) {
        sent.set(taskId, seen);
        send(task);
      }
      if (ENDED.has(task.status)) drop(taskId);
    });
    // A store away for a moment: the next event or poll reads again.
    reads.set(
      taskId,
      next.catch(() => undefined),
    );
  };

  // Listening before the first read: a change between the two is heard, and begin() reads after both.
  await Promise.all(
    [...new Set(taskIds)].map(async (taskId) => {
      if (!(await store.snapshot(taskId, owner))) return;
      unlisten.set(taskId, await store.listen(taskId, () => look(taskId)));
    }),
  );
  const followed = taskIds.filter((taskId, i) => unlisten.has(taskId) && taskIds.indexOf(taskId) === i);
  return {
    taskIds: followed,
    begin() {
      if (live || unlisten.size === 0) return;
      live = true;
      for (const taskId of followed) look(taskId);
      // A channel that stays in this process: changes made on other instances show at the next read.
      if (!store.channelsReachOtherInstances)
        timer = setInterval(() => {
          for (const taskId of unlisten.keys()) look(taskId);
        }, store.limits.pollIntervalMs);
    },
    stop() {
      live = false;
      for (const taskId of [...unlisten.keys()]) drop(taskId);
    },
  };
}
