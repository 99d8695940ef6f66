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
    /** Whether the task still waits for the key's answer: a copy filed late (the work parked meanwhile) checks first. */
    private readonly unanswered: (key: string) => Promise<boolean>,
  ) {}

  policyOf(option: Exclude<UnansweredOption, false> | undefined): Promise<UnansweredPolicy | undefined> {
    return this.inbox.policyOf(option);
  }

  /** Files a form question of the task (now, or after the policy's `afterMs`). A store that fails leaves it to the client. */
  file(key: string, params: ElicitParams, policy: UnansweredPolicy | undefined): void {
    if (params.mode === 'url' || this.#filed.has(key) || this.#timers.has(key)) return;
    // Filed at once, the nudge waits as a round's does; filed late (the client had its time), it goes at once.
    if (this.inbox.signedIn) return void this.#filed.set(key, this.#file(key, params, policy?.afterMs));
    if (policy?.then !== 'inbox') return;
    const timer = setTimeout(() => {
      this.#timers.delete(key);
      const late = this.unanswered(key).then((open) => (open ? this.#file(key, params, undefined) : undefined));
      this.#filed.set(
        key,
        late.catch(() => undefined),
      );
    }, policy.afterMs);
    (timer as { unref?: () => void }).unref?.();
    this.#timers.set(key, timer);
  }

  /**
   * The task took an answer for the key (from the inbox or elsewhere): its copy leaves the inbox. One filed by an
   * earlier run of the work (parked, maybe on another instance) is found by its key.
   */
  async withdraw(key: string): Promise<void> {
    clearTimeout(this.#timers.get(key));
    this.#timers.delete(key);
    const filed = this.#filed.get(key) ?? this.inbox.questions.find(this.#keyOf(key)).catch(() => undefined);
    this.#filed.delete(key);
    const id = await filed;
    // Claiming takes the inbox question's open token and drops it from the list; a later inbox answer hears 409.
    if (id !== undefined) await this.inbox.questions.claim(id).catch(() => undefined);
  }

  /** The work parked: its copies stay in the inbox; resolves once they are filed (a late one still waits its time). */
  async filed(): Promise<void> {
    await Promise.all(this.#filed.values());
  }

  /** The work is over: every copy still in the inbox goes. */
  async close(): Promise<void> {
    await Promise.all([...new Set([...this.#filed.keys(), ...this.#timers.keys()])].map((key) => this.withdraw(key)));
  }

  /** The copy's key in the owner's inbox. */
  #keyOf(key: string): string {
    return `task:${this.task.taskId}:${key}`;
  }

  /** Files the copy; resolves with its id in the inbox, or undefined when the store failed (the client still has it). */
  #file(key: string, params: ElicitParams, afterMs: number | undefined): Promise<string | undefined> {
    const { taskId, owner } = this.task;
    const from = { tool: this.inbox.tool, reason: 'task' as const, ...(afterMs === undefined ? {} : { afterMs }) };
    const link = { taskId, key, ...(owner === undefined ? {} : { owner }) };
    return this.inbox.questions.file(this.#keyOf(key), params, from, link).then(
      (filed) => filed.id,
      () => undefined,
    );
  }
}
