// A task's questions in its owner's inbox: each form question the work asks is also filed there (at once for a
// signed-in owner; for a session's task, under `elicitation.unanswered`, once the client has not answered in time),
// linked to the task, and withdrawn when the task takes an answer from anywhere or ends.
import type { ElicitParams, PersistentAsker } from '../../elicitation';
import type { UnansweredPolicy } from '../../model';

/** Where one task's questions go besides the client, and when. */
export interface TaskInbox {
  /** The persistent questions of the task's caller (their subject is the inbox the questions land in). */
  questions: PersistentAsker;
  tool: string;
  /** 0: filed when asked (a signed-in owner); else filed this long after, if still unanswered. */
  fileAfterMs: number;
  /** How long the person's nudge (`persistent.notify`) waits for another answer, for a question filed at once. */
  nudgeAfterMs?: number;
}

/**
 * The inbox a task created by this caller answers in, or undefined: a signed-in caller's at once; an anonymous
 * caller's (an older client's session) only under `unanswered: { then: 'inbox' }`, after its `afterMs`; a caller
 * with no subject (anonymous, no session) has none.
 */
export function taskInboxOf(
  questions: PersistentAsker | undefined,
  signedIn: boolean,
  policy: UnansweredPolicy | undefined,
  tool: string,
): TaskInbox | undefined {
  if (!questions?.subject) return undefined;
  if (signedIn) return { questions, tool, fileAfterMs: 0, ...(policy ? { nudgeAfterMs: policy.afterMs } : {}) };
  return policy?.then === 'inbox' ? { questions, tool, fileAfterMs: policy.afterMs } : undefined;
}

/** One task's copies of its questions in the inbox, on the instance running the work. */
export class TaskInboxCopies {
  // Per question key: the inbox question's id once filed (undefined: filing failed), or the timer that will file it.
  readonly #filed = new Map<string, Promise<string | undefined>>();
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly inbox: TaskInbox,
    private readonly task: { taskId: string; owner?: string },
  ) {}

  /** Files a form question of the task (now, or after `fileAfterMs`). A store that fails leaves it to the client. */
  file(key: string, params: ElicitParams): void {
    if (params.mode === 'url' || this.#filed.has(key) || this.#timers.has(key)) return;
    const { fileAfterMs } = this.inbox;
    if (fileAfterMs === 0) return this.#file(key, params);
    const timer = setTimeout(() => {
      this.#timers.delete(key);
      this.#file(key, params);
    }, fileAfterMs);
    (timer as { unref?: () => void }).unref?.();
    this.#timers.set(key, timer);
  }

  /** The task took an answer for the key (from the inbox or elsewhere): its copy leaves the inbox. */
  async withdraw(key: string): Promise<void> {
    clearTimeout(this.#timers.get(key));
    this.#timers.delete(key);
    const filed = this.#filed.get(key);
    this.#filed.delete(key);
    const id = await filed;
    // Claiming takes the inbox question's open token and drops it from the list; a later inbox answer hears 409.
    if (id !== undefined) await this.inbox.questions.claim(id).catch(() => undefined);
  }

  /** The work is over: every copy still in the inbox goes. */
  async close(): Promise<void> {
    await Promise.all([...new Set([...this.#filed.keys(), ...this.#timers.keys()])].map((key) => this.withdraw(key)));
  }

  #file(key: string, params: ElicitParams): void {
    const { taskId, owner } = this.task;
    const { nudgeAfterMs, fileAfterMs } = this.inbox;
    // Filed at once, the nudge waits as a round's does; filed late (the client had its time), it goes at once.
    const afterMs = fileAfterMs === 0 ? nudgeAfterMs : undefined;
    const from = { tool: this.inbox.tool, reason: 'task' as const, ...(afterMs === undefined ? {} : { afterMs }) };
    const link = { taskId, key, ...(owner === undefined ? {} : { owner }) };
    this.#filed.set(
      key,
      this.inbox.questions.file(`task:${taskId}:${key}`, params, from, link).then(
        (filed) => filed.id,
        () => undefined,
      ),
    );
  }
}
