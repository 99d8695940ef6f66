// A 2025-11-25 session's new tasks, announced on its channel (`task-session:`): the instance holding the session's GET
// stream hears them and follows each task for notifications/tasks/status. The id is sealed: the channel gives out no
// handle to anyone listening on the store.
import { isObject } from '../../protocol';
import type { StoreBackend } from '../../stores';
import type { TaskParts } from './task-parts';

export class SessionAnnouncements {
  constructor(
    private readonly backend: StoreBackend,
    private readonly parts: TaskParts,
  ) {}

  /** Tells the instances holding the session's GET stream that it has a new task. */
  async announce(sessionId: string, taskId: string): Promise<void> {
    const channel = await this.parts.session(sessionId);
    await this.backend.publish(channel, await this.parts.sealAt({ taskId }, channel));
  }

  /** Hears the new tasks announced for the session, on any instance (this store object's only, without pub/sub). */
  async hear(sessionId: string, onTask: (taskId: string) => void): Promise<() => Promise<void>> {
    const channel = await this.parts.session(sessionId);
    return this.backend.subscribe(channel, (message) => {
      void this.parts
        .openAt<unknown>(message, channel)
        .then((value) => {
          if (isObject(value) && typeof value.taskId === 'string') onTask(value.taskId);
        })
        .catch(() => undefined); // not one of ours: nothing to follow
    });
  }
}
