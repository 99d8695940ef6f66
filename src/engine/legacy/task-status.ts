// notifications/tasks/status (2025-11-25, optional): a session's new tasks are announced by whichever instance created
// them, and followed on the instance that holds the session's GET stream, each change sent there as the bare Task.
// Clients must not rely on these (the spec's words): they poll, and this only spares them a poll.
import type { ParleyServer } from '../server';
import type { TaskFollow } from '../task-follow';
import { legacyTaskOwner } from './methods';
import type { LiveSession } from './sessions';
import type { AuthInfo } from '../../model';

/**
 * Starts following the session's tasks for its GET stream, once; resolves when announcements are heard (so a task
 * created after the stream opened is never missed). The session's drop stops it.
 */
export async function watchTaskStatus(server: ParleyServer, session: LiveSession, auth: AuthInfo): Promise<void> {
  const tasks = server.tasks?.legacy;
  if (!tasks || session.unwatchTasks) return;
  const follows = new Set<TaskFollow>();
  let stopped = false;
  const owner = legacyTaskOwner(auth, session);
  const send = (task: Record<string, unknown>) =>
    session.standalone?.send({ jsonrpc: '2.0', method: 'notifications/tasks/status', params: task });
  const follow = async (taskId: string) => {
    const one: TaskFollow = await tasks.follow(taskId, owner, send, () => follows.delete(one));
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
    unlisten = await tasks.hearAnnounced(session.record.sessionId, (taskId) => void follow(taskId).catch(() => undefined));
  } catch (error) {
    // The store is away: the stream serves without these (the client polls), and the next GET tries again.
    session.unwatchTasks = undefined;
    server.logger.warn(`notifications/tasks/status are off for a session's stream: the store did not answer (${String(error)})`);
    return;
  }
  if (stopped) await unlisten();
}
