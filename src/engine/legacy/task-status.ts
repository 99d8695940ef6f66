// notifications/tasks/status (2025-11-25, optional): a session's new tasks are announced by whichever instance created
// them, and followed on the instance that holds the session's GET stream (stdio: the process), each change sent there
// as the bare Task.
// Clients must not rely on these (the spec's words): they poll, and this only spares them a poll. Loaded with the
// task runtime, so an edge bundle without tasks carries none of it.
import type { AuthInfo } from '../../model';
import type { Logger } from '../../runtime';
import { legacyTaskOwner } from './methods';
import type { LiveSession } from './sessions';
import { followTasks, type TaskFollow } from '../tasks/task-follow';
import type { TaskFollowers } from '../tasks/task-followers';
import { legacyTask } from '../tasks/task-wire';

/**
 * Starts following the session's tasks for its stream (`out`: the session's GET stream; stdio's stdout), once;
 * resolves when announcements are heard (so a task created after the stream opened is never missed). The session's
 * drop stops it.
 */
export async function watchTaskStatus(
  followers: TaskFollowers,
  session: LiveSession,
  auth: AuthInfo,
  logger: Logger,
  out: (message: unknown) => void,
): Promise<void> {
  if (session.unwatchTasks) return;
  const follows = new Set<TaskFollow>();
  let stopped = false;
  const owner = legacyTaskOwner(auth, session);
  const send = (task: Record<string, unknown>) => out({ jsonrpc: '2.0', method: 'notifications/tasks/status', params: task });
  const follow = async (taskId: string) => {
    // `fresh`: its create result told the client `working`, so only a change is news.
    const one: TaskFollow = await followTasks({
      followers,
      taskIds: [taskId],
      owner,
      send: (task) => send(legacyTask(task)),
      fresh: true,
      onEnd: () => follows.delete(one),
    });
    if (stopped || one.taskIds.length === 0) return one.stop();
    follows.add(one);
    one.begin();
  };
  let unlisten: (() => Promise<void>) | undefined;
  session.unwatchTasks = () => {
    stopped = true;
    for (const one of follows) one.stop();
    void unlisten?.().catch(() => undefined);
  };
  try {
    unlisten = await followers.store.sessions.hear(session.record.sessionId, (taskId) => void follow(taskId).catch(() => undefined));
  } catch (error) {
    // The store is away: the stream serves without these (the client polls), and the next GET tries again.
    session.unwatchTasks = undefined;
    logger.warn(`notifications/tasks/status are off for a session's stream: the store did not answer (${String(error)})`);
    return;
  }
  if (stopped) await unlisten();
}
