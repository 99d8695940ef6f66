// Where a task's parts sit in the store: storage names and channels, ids, question keys and owners only as SHA-256
// digests, so reading the store does not give out bearer ids.
import type { StoreCrypto } from '../../crypto';

/**
 * A task's stored parts: the record, the live token, the work's lease, the end, a question's open token, its answer,
 * the claim token of a work that ended at a question (the first answer's instance takes it and replays the work), and
 * the stretch token of work running between questions (whoever finds its lease lapsed takes it and resumes the work).
 */
export type TaskPart = 'r' | 'l' | 'w' | 'e' | 'q' | 'a' | 'p' | 's';

/** How many tasks' digests are kept (about 100 bytes each), the oldest named first to go. */
const KEPT_IDS = 1_024;

/**
 * Storage names (prefix `task:`): `<id>:r` the record, `:l` the live token an end takes, `:w` the work's lease (it
 * expires unless renewed), `:e` the end, `:q:<key>` a question's open token the first answer takes, `:a:<key>` its
 * answer, `:p` the claim token of parked work, `:s` the stretch token of running work; `task-owner:<owner>` a caller's index (an anonymous caller's by its address).
 */
export class TaskNames {
  // A task's digest, kept for the tasks last named here: one task's parts are named many times over its life (every
  // poll, every change), and each would digest its id again.
  readonly #ids = new Map<string, string | Promise<string>>();

  constructor(
    private readonly keyPrefix: string,
    private readonly crypto: Pick<StoreCrypto, 'digest'>,
  ) {}

  async part(taskId: string, part: TaskPart, key?: string): Promise<string> {
    const id = await this.#id(taskId);
    return `${this.keyPrefix}task:${id}:${part}${key === undefined ? '' : `:${await this.crypto.digest(key)}`}`;
  }

  #id(taskId: string): string | Promise<string> {
    const kept = this.#ids.get(taskId);
    if (kept !== undefined) return kept;
    if (this.#ids.size >= KEPT_IDS) this.#ids.delete(this.#ids.keys().next().value!);
    const id = this.crypto.digest(`task\u0000${taskId}`);
    this.#ids.set(taskId, id);
    if (typeof id !== 'string') id.catch(() => this.#ids.delete(taskId));
    return id;
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
