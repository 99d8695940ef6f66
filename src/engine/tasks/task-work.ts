// The running side of one task, on the instance that runs its work: an Asker whose questions park the task in
// input_required (the run ends there, and whoever claims an answer replays it), the AbortSignal a cancel fires, and the
// lease it renews while it runs.
import {
  ELICIT_METHOD,
  elicitationModes,
  missingFor,
  type Asker,
  type ElicitParams,
  type OtherInputMethod,
  type RawAnswer,
  type RecordedStep,
  StepLog,
} from '../../elicitation';
import { ElicitationNotSupportedError, PublicMcpError } from '../../protocol';
import type { ElicitOptions } from '../../model';
import { type TaskInbox, TaskInboxCopies } from './task-inbox';
import type { InputRequest, TaskEnd, TaskRecord } from './task-record';
import type { TaskEvent } from './task-events';
import type { TaskStore } from './task-store';

const STOPPED = {
  cancelled: 'The task was cancelled',
  ended: 'The task ended or expired while its work ran',
  'handed-over': "The task's work stopped on this instance, to be resumed by replay on another",
};

/**
 * Why the work's signal fired: a cancel, or the task ended or expired without it (taken for orphaned, say). Public: a
 * tool that rethrows it says nothing secret, and nothing is logged as an unexpected failure.
 */
export class TaskStoppedError extends PublicMcpError {
  constructor(readonly why: 'cancelled' | 'ended' | 'handed-over') {
    super(STOPPED[why], 'TASK_STOPPED');
    this.name = 'TaskStoppedError';
  }
}

/**
 * One stretch of a task's work on this instance. Start it right after `TaskStore.create` (or to replay a task: answers
 * already in the store are `known`, and a question asked before and still open parks the work again, not asked twice),
 * hand it to the run as its Asker and its signal, and `finish` or `close` it when the run is over. A question it has no
 * answer for parks the work: the run ends there (`parked`), and the instance that claims an answer replays it.
 */
export class TaskWork implements Asker {
  readonly #controller = new AbortController();
  // The answers the task already has (a replay returns them), and the questions of this turn the run waits on: an
  // answer that came while it parked resumes it in place.
  readonly #known: Map<string, unknown>;
  readonly #asked: Set<string>;
  readonly #waiting = new Map<string, (answer: RawAnswer) => void>();
  // The questions of this turn, written together, and their copies to file in the inbox once they are in the store.
  readonly #asking: [string, InputRequest][] = [];
  readonly #filing: (() => void)[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;
  #ticking: Promise<void> | undefined;
  // Handed over: this run stops here without ending the task, which another instance resumes.
  #handedOver = false;
  #unlisten: (() => Promise<void>) | undefined;
  // The steps the task recorded, read from its record on the first step.
  #steps: StepLog | undefined;
  // The task's questions in its owner's inbox, when it has one.
  readonly #inbox: TaskInboxCopies | undefined;
  // The work ends at a question it has no answer for (parks), to be replayed by whoever claims the answer; `wake`
  // tells the run's handler it suspended, `turn` is the park under way.
  readonly #park: { wake?: () => void; turn?: Promise<void>; done: boolean } = { done: false };

  private constructor(
    private readonly store: TaskStore,
    readonly task: TaskRecord,
    /** The client capabilities of the request that created the task: they decide what may be asked (choice 6). */
    private readonly capabilities: Record<string, unknown>,
    known: Map<string, unknown>,
    inbox: TaskInbox | undefined,
  ) {
    this.#known = known;
    this.#asked = new Set(task.asked);
    this.#inbox = inbox && new TaskInboxCopies(inbox, task, async (key) => (await store.answers(task.taskId, [key])).size === 0);
  }

  /**
   * Listens on the task's channel for its end, reads the answers it already has, and renews its lease until closed.
   * With `inbox`, its form questions are also filed in the owner's inbox, where the first answer wins as a
   * `tasks/update` would.
   */
  static async start(store: TaskStore, task: TaskRecord, capabilities: Record<string, unknown>, inbox?: TaskInbox): Promise<TaskWork> {
    const work = new TaskWork(store, task, capabilities, new Map(), inbox);
    try {
      for (const [key, value] of await store.answers(task.taskId)) work.#known.set(key, value);
      work.#unlisten = await store.listen(task.taskId, (event) => work.#heard(event));
      // A replay starts with the answers that woke it: their questions leave the record and the inbox, as #collect's
      // would. Last, so a replay that could not start leaves them for the next one.
      const answered = task.questions.map(([key]) => key).filter((key) => work.#known.has(key));
      if (answered.length > 0) {
        const taken = new Map(answered.map((key) => [key, work.#known.get(key)]));
        await Promise.all([store.settle(task.taskId, taken), ...answered.map((key) => work.#inbox?.withdraw(key))]);
      }
    } catch (error) {
      // No work runs it here: the process no longer counts it (its lease lapses, and the task ends orphaned).
      store.released(task.taskId);
      await work.#unlisten?.().catch(() => undefined);
      throw error;
    }
    // One timer renews the lease, a third of leaseMs apart; on a store whose channel stays in this process, it also
    // finds a cancel sent to another instance (the task ended), every pollIntervalMs.
    const lease = store.limits.leaseMs / 3;
    const every = Math.max(50, store.channelsReachOtherInstances ? lease : Math.min(lease, task.pollIntervalMs));
    work.#timer = setInterval(() => void (work.#ticking = work.#tick()), every);
    store.stretches.add(work);
    return work;
  }

  /** The run's handler learns here that the work parked: the run is over, its questions wait in the store. */
  onSuspend(wake: () => void): void {
    this.#park.wake = wake;
  }

  /** The work parked at a question: nothing of it stays in this process, and the run must not end the task. */
  get parked(): boolean {
    return this.#park.done;
  }

  /** Fires on a cancel from any instance, and when the task ended or expired without this run. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  canShow(mode: 'form' | 'url'): boolean {
    return elicitationModes(this.capabilities)[mode];
  }

  known(key: string): { replayed: boolean } | undefined {
    return this.#known.has(key) ? { replayed: true } : undefined;
  }

  async ask(key: string, params: ElicitParams, options?: ElicitOptions): Promise<RawAnswer> {
    const mode = params.mode === 'url' ? 'url' : 'form';
    if (!this.canShow(mode)) throw new ElicitationNotSupportedError(`This client does not support ${mode}-mode elicitation`);
    // `unanswered: false` leaves the question to the client alone, as it does outside a task; `{ afterMs, then }` is
    // read over the server's policy, also as outside a task.
    const option = options?.unanswered;
    const inbox = option === false ? undefined : this.#inbox;
    const policy = await inbox?.policyOf(option || undefined);
    return this.#input(key, { method: ELICIT_METHOD, params: { ...params } }, () => inbox?.file(key, params, policy));
  }

  async request(key: string, method: OtherInputMethod, params: Record<string, unknown>): Promise<RawAnswer> {
    const lacking = missingFor(method, params, this.capabilities);
    if (lacking) throw new PublicMcpError(lacking.message, 'INPUT_NOT_SUPPORTED');
    return this.#input(key, { method, params });
  }

  stepResult(name: string): RecordedStep | undefined {
    return (this.#steps ??= new StepLog(this.task.steps)).get(name);
  }

  /** Into the task's record before the run goes on: a step the store did not take stops the run, as an end would. */
  async recordStep(name: string, value: unknown): Promise<void> {
    if (this.#handedOver) throw new TaskStoppedError('handed-over');
    if (!(await this.store.recordStep(this.task.taskId, name, value))) throw new TaskStoppedError('ended');
    this.#steps?.add(name, value);
  }

  /** Asked by a 2025-11-25 task's tool (ToolContext.startTask): its call is a task already. */
  startTask(): Promise<boolean> {
    return Promise.resolve(true);
  }

  /** What the work reports while it runs: the task's status message. */
  progress(message: string): Promise<boolean> {
    return this.#handedOver ? Promise.resolve(false) : this.store.progress(this.task.taskId, message);
  }

  /** Ends the task with the run's outcome (false when a cancel or another end came first) and stops listening. */
  async finish(end: TaskEnd): Promise<boolean> {
    if (this.#handedOver) return false; // the run's outcome is not the task's: another instance resumes it
    try {
      return await this.store.finish(this.task.taskId, end);
    } finally {
      await this.close();
    }
  }

  /** Ends the task with `end` (unless something ended it first) and fires the signal: the work may run no longer. */
  async expire(end: TaskEnd): Promise<boolean> {
    const ended = await this.finish(end);
    this.#stop('ended');
    return ended;
  }

  /**
   * Stops the run here without ending the task (shutdown's grace ran out, or the platform's limit is near): nothing it
   * does from now on reaches the store, its signal fires, and its lease goes, so the next read on any instance resumes
   * the work by replay from its last step.
   */
  async handOver(): Promise<void> {
    if (this.#handedOver) return;
    this.#handedOver = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#ticking; // a renewal under way would put the lease back
    this.#stop('handed-over');
    await this.store.handOver(this.task.taskId);
  }

  async close(): Promise<void> {
    this.store.stretches.delete(this);
    this.store.released(this.task.taskId);
    clearInterval(this.#timer);
    this.#timer = undefined;
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    // Parked work leaves its questions' copies in the inbox: whoever takes an answer withdraws them.
    await Promise.all([unlisten?.(), this.parked ? this.#inbox?.filed() : this.#inbox?.close()]);
  }

  async #input(key: string, request: InputRequest, asked?: () => void): Promise<RawAnswer> {
    if (this.#known.has(key)) return this.#known.get(key) as RawAnswer;
    this.signal.throwIfAborted();
    const answer = new Promise<RawAnswer>((resolve, reject) => {
      const stopped = () => reject(this.signal.reason);
      // An answered question lets go of the signal: a task that asks many in turn holds no listener per question.
      this.#waiting.set(key, (value) => {
        this.signal.removeEventListener('abort', stopped);
        resolve(value);
      });
      this.signal.addEventListener('abort', stopped, { once: true });
    });
    answer.catch(() => undefined); // the caller gets the rejection below; this only keeps it from going unhandled meanwhile
    // A question a replay asked before is still open in the store: it parks the work again, never asked twice.
    if (!this.#asked.has(key)) {
      this.#asked.add(key);
      this.#asking.push([key, request]);
      if (asked) this.#filing.push(asked);
    }
    this.#parkTurn();
    return answer;
  }

  /**
   * The questions of one turn (Promise.all of two elicits) park the work in one write, so a poll never shows the task
   * in input_required with only some of them: the claim token, then the new questions, in the store. An answer that
   * came meanwhile (while the run went on, or to a question asked before this run) is claimed here and the run goes on
   * in place; else the run is over, and whoever takes an answer claims the work and replays it.
   */
  #parkTurn(): void {
    const park = this.#park;
    park.turn ??= new Promise((resolve) => setTimeout(resolve, 0)).then(async () => {
      park.turn = undefined;
      const keys = [...this.#waiting.keys()];
      const filing = this.#filing.splice(0);
      await this.store.park(this.task.taskId, this.#asking.splice(0));
      for (const file of filing) file(); // in the store first, so an inbox answer finds the task's question open
      const found = await this.store.answers(this.task.taskId, keys);
      const left = this.task.createdAt + this.task.ttlMs - Date.now();
      if (found.size > 0 && (await this.store.claim(this.task.taskId, left))) {
        await this.#collect(keys);
        if (this.#waiting.size > 0) this.#parkTurn();
        return;
      }
      park.done = true;
      park.wake?.();
      await this.close();
    });
    park.turn.catch(() => this.#stop('ended'));
  }

  /** An answer is for the instance that claims it (a replay, or #parkTurn here); an end stops the run. */
  #heard(event: TaskEvent): void {
    if (event.kind === 'end') this.#stop(event.status === 'cancelled' ? 'cancelled' : 'ended');
  }

  /** Takes in the stored answers of questions this run waits on (its claim won), and settles them in the record. */
  async #collect(keys: readonly string[]): Promise<void> {
    const wanted = keys.filter((key) => this.#waiting.has(key));
    if (wanted.length === 0) return;
    const found = await this.store.answers(this.task.taskId, wanted);
    if (found.size === 0) return;
    for (const [key, value] of found) {
      this.#known.set(key, value);
      this.#waiting.get(key)?.(value as RawAnswer);
      this.#waiting.delete(key);
    }
    await Promise.all([this.store.settle(this.task.taskId, found), ...[...found.keys()].map((key) => this.#inbox?.withdraw(key))]);
  }

  async #tick(): Promise<void> {
    try {
      if (!(await this.store.hold(this.task.taskId))) {
        const now = await this.store.snapshot(this.task.taskId, this.task.owner);
        this.#stop(now?.status === 'cancelled' ? 'cancelled' : 'ended');
      }
    } catch {
      // The store is away for a moment: the next tick tries again, and the lease covers a few missed ones.
    }
  }

  #stop(why: TaskStoppedError['why']): void {
    if (!this.signal.aborted) this.#controller.abort(new TaskStoppedError(why));
    void this.close();
  }
}
