// Where a task's parts sit in the store: storage names and channels, ids, question keys and owners only as SHA-256
// digests, so reading the store does not give out bearer ids.
import type { StoreCrypto } from '../../crypto';

/**
 * A task's stored parts: the record, the live token, the work's lease, the end, a question's open token, its answer,
 * the claim token of a work that ended at a question (the first answer's instance takes it and replays the work), and
 * the stretch token of work running between questions (whoever finds its lease lapsed takes it and resumes the work).
 */
export type TaskPart = 'r' | 'l' | 'w' | 'e' | 'q' | 'a' | 'p' | 's';

/**
 * Storage names (prefix `task:`): `<id>:r` the record, `:l` the live token an end takes, `:w` the work's lease (it
 * expires unless renewed), `:e` the end, `:q:<key>` a question's open token the first answer takes, `:a:<key>` its
 * answer, `:p` the claim token of parked work, `:s` the stretch token of running work; `task-owner:<owner>` a caller's index (an anonymous caller's by its address).
 */
export class TaskNames {
  constructor(
    private readonly keyPrefix: string,
    private readonly crypto: Pick<StoreCrypto, 'digest'>,
  ) {}

  async part(taskId: string, part: TaskPart, key?: string): Promise<string> {
    const id = await this.crypto.digest(`task\u0000${taskId}`);
    return `${this.keyPrefix}task:${id}:${part}${key === undefined ? '' : `:${await this.crypto.digest(key)}`}`;
  }

  async channel(taskId: string): Promise<string> {
    return `${this.keyPrefix}task:${await this.crypto.digest(`channel\u0000${taskId}`)}`;
  }

  /** A 2025-11-25 session's channel, where new tasks of the session are announced. */
  async session(sessionId: string): Promise<string> {
    return `${this.keyPrefix}task-session:${await this.crypto.digest(`session\u0000${sessionId}`)}`;
  }

  /** A caller's index: its owner's, or for an anonymous caller its address's (all anonymous callers of no known address share one). */
  async owner(owner: string | undefined, address?: string): Promise<string> {
    const who = owner === undefined ? ['anonymous', address ?? null] : ['owner', owner];
    return `${this.keyPrefix}task-owner:${await this.crypto.digest(JSON.stringify(who))}`;
  }
}
