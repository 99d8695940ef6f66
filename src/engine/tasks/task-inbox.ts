// A task's questions in its owner's inbox: each form question the work asks is also filed there (at once for a
// signed-in owner; for a session's task, under `elicitation.unanswered`, once the client has not answered in time),
// linked to the task, and withdrawn when the task takes an answer from anywhere or ends.
import type { ElicitParams, PersistentAsker } from '../../elicitation';
import type { UnansweredOption, UnansweredPolicy } from '../../model';

/**
 * Where one task's questions go besides the client, and when: a signed-in owner's are filed as they are asked (the
 * nudge waits the policy's `afterMs`); an anonymous owner's (an older client's session) only under a policy that
 * says `then: 'inbox'`, once its `afterMs` passed unanswered. The policy is the question's own: the call's
 * `unanswered` over the server's, as outside a task.
 */
export interface TaskInbox {
  /** The persistent questions of the task's caller (their subject is the inbox the questions land in). */
  questions: PersistentAsker;
  tool: string;
  signedIn: boolean;
  /**
   * The policy a question follows: the server's `elicitation.unanswered`, or the call's `unanswered: { … }` over it,
   * checked as outside a task (a misfit one throws).
   */
  policyOf(option: Exclude<UnansweredOption, false> | undefined): Promise<UnansweredPolicy | undefined>;
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

  policyOf(option: Exclude<UnansweredOption, false> | undefined): Promise<UnansweredPolicy | undefined> {
    return this.inbox.policyOf(option);
  }

  /** Files a form question of the task (now, or after the policy's `afterMs`). A store that fails leaves it to the client. */
  file(key: string, params: ElicitParams, policy: UnansweredPolicy | undefined): void {
    if (params.mode === 'url' || this.#filed.has(key) || this.#timers.has(key)) return;
    // Filed at once, the nudge waits as a round's does; filed late (the client had its time), it goes at once.
    if (this.inbox.signedIn) return this.#file(key, params, policy?.afterMs);
    if (policy?.then !== 'inbox') return;
    const timer = setTimeout(() => {
      this.#timers.delete(key);
      this.#file(key, params, undefined);
    }, policy.afterMs);
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

  #file(key: string, params: ElicitParams, afterMs: number | undefined): void {
    const { taskId, owner } = this.task;
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
