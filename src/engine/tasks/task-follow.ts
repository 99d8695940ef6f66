// Following tasks for the streams that asked to hear of them (a 2026-07-28 listen stream's taskIds, a 2025-11-25
// session's own tasks): each task is followed once in the process however many streams follow it (task-followers.ts),
// and sent to a stream when what a client sees of it changed. Nothing is followed past the task's end.
import { looks, type TaskFollowers } from './task-followers';
import type { TaskSnapshot } from './task-record';

/** One stream's follow of some tasks: the ones it found (live, the caller's), sent from begin() on until stop(). */
export interface TaskFollow {
  /** The ids followed: of those asked for, the live tasks of this caller (an unknown id is left out, not an error). */
  readonly taskIds: string[];
  /** Sends each followed task as it is now, then each change: called once the stream has sent what must come first. */
  begin(): void;
  stop(): void;
}

const ENDED: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** How a task just created looks: its create result said as much. */
const WORKING = JSON.stringify(['working', null, []]);

/** What to follow, for whom, and where it goes. */
interface FollowRequest {
  followers: TaskFollowers;
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
export async function followTasks({ followers, taskIds, owner, send, fresh = false, onEnd }: FollowRequest): Promise<TaskFollow> {
  const sent = new Map<string, string>(fresh ? taskIds.map((taskId) => [taskId, WORKING]) : []);
  const latest = new Map<string, TaskSnapshot>();
  const leave = new Map<string, () => void>();
  // Gone before begin(): sent as last seen (its end, when it ended), then dropped.
  const expired = new Set<string>();
  let live = false;
  let stopped = false;

  const drop = (taskId: string) => {
    leave.get(taskId)?.();
    if (!leave.delete(taskId) || leave.size > 0) return;
    onEnd?.();
  };
  const show = (taskId: string, task: TaskSnapshot) => {
    if (!live || !leave.has(taskId)) return;
    const seen = looks(task);
    if (sent.get(taskId) !== seen) {
      sent.set(taskId, seen);
      send(task);
    }
    if (ENDED.has(task.status)) drop(taskId);
  };

  await Promise.all(
    [...new Set(taskIds)].map(async (taskId) => {
      const joined = await followers.join(taskId, owner, {
        seen: (task) => (live ? show(taskId, task) : latest.set(taskId, task)),
        gone: () => (live ? drop(taskId) : expired.add(taskId)),
      });
      if (!joined) return;
      if (stopped) return joined.leave(); // another task's join failed: this follow never starts
      leave.set(taskId, joined.leave);
      if (!latest.has(taskId)) latest.set(taskId, joined.last);
    }),
  ).catch((error: unknown) => {
    stopped = true;
    for (const taskId of [...leave.keys()]) drop(taskId);
    throw error;
  });
  const followed = taskIds.filter((taskId, i) => leave.has(taskId) && taskIds.indexOf(taskId) === i);
  return {
    taskIds: followed,
    begin() {
      if (live || stopped || leave.size === 0) return;
      live = true;
      for (const taskId of followed) {
        const task = latest.get(taskId);
        if (task) show(taskId, task);
        if (expired.has(taskId)) drop(taskId);
      }
      latest.clear();
    },
    stop() {
      live = false;
      stopped = true;
      for (const taskId of [...leave.keys()]) drop(taskId);
    },
  };
}
