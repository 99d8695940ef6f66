// The task store: each task's record, end, questions and answers on the configured StoreBackend, sealed and expiring
// with the task; what must happen once (the first answer to a question, the one end of a task) is a `take` of a token;
// answers and cancels are published on the task's channel, so the instance running the work hears them. Where each part
// sits is task-parts.ts's (the question store's records), each caller's index task-owners.ts's.
import type { StoreCrypto } from '../../crypto';
import { isObject } from '../../protocol';
import { leftOf, newThread } from '../../stores';
import type { RequestScope } from '../../model';
import { SessionAnnouncements } from './task-announce';
import { TaskEnds } from './task-ends';
import { parseEvent, type TaskEvent } from './task-events';
import { TaskLedger } from './task-ledger';
import { taskRecordOf } from './task-legacy';
import { type TaskHome, TaskParts } from './task-parts';
import { OwnerIndex } from './task-owners';
import { SerialRuns } from './task-serial';
import { LiveStretches, StretchTokens } from './task-stretch';
import { cutTooOften, ORPHANED, type TaskLimits, TASK_DEFAULTS } from './task-limits';
import { isTaskId, newTaskId, type InputRequest, type TaskEnd, type TaskRecord, type TaskRun, type TaskSnapshot } from './task-record';

/** The platform's way to keep work alive after a response (a Worker's ctx.waitUntil), as the reading request has it. */
type KeepAlive = RequestScope['keepAlive'];

/** A cut stretch of work this instance resumes: `keepAlive` is the reading request's (a Worker's ctx). */
type Resume = (task: { taskId: string; owner: string | undefined }, keepAlive: KeepAlive | undefined) => void;

interface NewTask {
  /** The verified caller's subject; absent when anonymous. */
  owner?: string;
  /** An anonymous caller's address, when the host knows it: its tasks are counted apart from other addresses'. */
  address?: string;
  tool: string;
  statusMessage?: string;
  /** For work that may end at a question: what its replays run with. */
  run?: TaskRun;
  /** Answers the call had before it became a task (its rounds'), by key, and the steps it recorded then. */
  answers?: [string, unknown][];
  steps?: [string, unknown?][];
}

export type { TaskHome };

/** A new stretch of work (after a step or a question) starts with no cut counted. */
const fresh = (record: TaskRecord): Pick<TaskRecord, 'cuts'> => (record.cuts ? { cuts: 0 } : {});

/** Tasks in the store: each one's record, lease, end, questions and answers, and its owner's index. */
export class TaskStore {
  // Changes this instance makes to one record, one after another.
  readonly #serial = new SerialRuns();
  readonly #parts: TaskParts;
  readonly #owners: OwnerIndex;
  readonly #ledger: TaskLedger;
  readonly #tokens: StretchTokens;
  readonly #ends: TaskEnds;
  #resume: Resume | undefined;
  /** The stretches of work running in this process: shutdown waits for them, then hands them over. */
  readonly stretches = new LiveStretches();
  /** A 2025-11-25 session's new tasks, announced to the instance holding its GET stream. */
  readonly sessions: SessionAnnouncements;

  /** `crypto`: WebCrypto's, or the runtime's own (parley-mcp/node passes node:crypto's); either reads the other's. */
  constructor(
    private readonly home: TaskHome,
    readonly limits: TaskLimits = TASK_DEFAULTS,
    crypto?: StoreCrypto,
  ) {
    this.#parts = new TaskParts(home, crypto);
    const { ended } = limits;
    this.#owners = new OwnerIndex(
      home.backend,
      this.#parts,
      {
        maxPerOwner: limits.maxPerOwner,
        maxEnded: ended.maxPerCaller,
        maxEndedBytes: ended.maxBytesPerCaller,
      },
      async (taskId) => (await this.#ends.read(taskId)) !== undefined,
    );
    this.#ledger = new TaskLedger({ maxTotal: limits.maxTotal, maxEndedTotal: ended.maxTotal, maxEndedBytesTotal: ended.maxBytesTotal });
    this.#tokens = new StretchTokens(this.#parts);
    this.sessions = new SessionAnnouncements(home.backend, this.#parts);
    this.#ends = new TaskEnds({
      parts: this.#parts,
      limits,
      tokens: this.#tokens,
      owners: this.#owners,
      ledger: this.#ledger,
      raw: (taskId) => this.#raw(taskId),
      publish: (taskId, event) => this.#publish(taskId, event),
    });
  }

  /** How a cut stretch that a reader of this store claimed is resumed (the runtime replays it); unset, nothing resumes. */
  resumeWith(resume: Resume): void {
    this.#resume = resume;
  }

  /** Whether what is published on a task's channel reaches other processes (else the work reads the store as well). */
  get channelsReachOtherInstances(): boolean {
    return this.home.backend.supportsPubSub;
  }

  /**
   * Creates a task in `working`, its lease held by the caller (who runs the work and renews it with `hold`), and returns
   * once it is in the store (a `tasks/get` on any instance finds it), or throws a LimitError: 429 (Retry-After) when
   * the caller already holds `maxPerOwner` live tasks, 503 when this process runs `maxTotal`. Its arguments are kept
   * (sealed, in `run`) only for work that may be replayed, until its end; a client is never shown them.
   */
  async create(task: NewTask): Promise<TaskRecord> {
    const now = Date.now();
    const { owner, address } = task;
    const index = await this.#parts.owner(owner, address);
    const { ttlMs, pollIntervalMs } = this.limits;
    // Its thread holds the answers and steps its rounds had before it became a task.
    const thread = newThread<InputRequest>({ owner, createdAt: now, expiresAt: now + ttlMs, answers: task.answers, steps: task.steps });
    const record: TaskRecord = {
      taskId: newTaskId(),
      ...thread,
      index,
      tool: task.tool,
      ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
      ...(task.run ? { run: task.run, cuts: 0 } : {}),
      keyed: true,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs,
    };
    const { taskId } = record;
    this.#parts.keyed(taskId);
    const who =
      owner !== undefined
        ? 'this caller'
        : address === undefined
          ? 'anonymous callers (of no known address, they count as one caller)'
          : 'anonymous callers from this address';
    await this.#owners.admit(index, who, { taskId, expiresAt: now + record.ttlMs }, async () => {
      this.#ledger.admit(taskId);
      try {
        await this.#parts.mark(taskId, 'l', record.ttlMs);
        // Work that may be replayed runs in stretches (task-stretch.ts); other work only holds its lease.
        if (record.run) await this.#tokens.begin(taskId, this.limits.leaseMs, record.ttlMs);
        else await this.#parts.mark(taskId, 'w', Math.min(this.limits.leaseMs, record.ttlMs));
        await this.#parts.threads.write(taskId, '', record);
      } catch (error) {
        this.#ledger.release(taskId);
        throw error;
      }
    });
    return record;
  }

  /**
   * The task as `tasks/get` shows it now, or undefined for anything not a live task of this owner: an id of the wrong
   * shape, unknown, expired, unreadable, or another caller's (an anonymous task belongs to whoever holds its id). A task
   * whose lease lapsed while its work ran (nobody runs it any more) is resumed by replay, by exactly one of the readers
   * that see it, on `keepAlive` when the reading request has one; past tasks.attempts, or without a `run` to replay,
   * it ends failed here, once.
   */
  async snapshot(taskId: unknown, owner: string | undefined, keepAlive?: KeepAlive): Promise<TaskSnapshot | undefined> {
    const record = await this.#record(taskId, owner);
    if (!record) return undefined;
    const base = {
      taskId: record.taskId,
      createdAt: record.createdAt,
      ttlMs: record.ttlMs,
      pollIntervalMs: record.pollIntervalMs,
    };
    let end = await this.#ends.read(record.taskId);
    if (!end && (await this.#lapsed(record, keepAlive))) end = await this.#ends.read(record.taskId);
    if (end) {
      const { at, status, statusMessage } = end;
      return {
        ...base,
        status,
        ...(statusMessage === undefined ? {} : { statusMessage }),
        lastUpdatedAt: at,
        ...(end.status === 'completed' ? { result: end.result } : {}),
        ...(end.status === 'failed' ? { error: end.error } : {}),
      };
    }
    const open = await this.#parts.threads.waiting(record.taskId, '', record);
    // Every question answered, none taken in, and the work parked: a replay is due (one that could not run gave it back).
    const due = open.length === 0 && record.questions.length > 0 && (await this.#parts.has(record.taskId, 'p'));
    return {
      ...base,
      status: open.length > 0 ? 'input_required' : 'working',
      ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
      lastUpdatedAt: record.lastUpdatedAt,
      ...(open.length > 0 ? { inputRequests: open } : {}),
      ...(due ? { replayDue: true } : {}),
    };
  }

  /** The whole record (tool, questions asked) for a run that resumes it; the same lookup as snapshot. */
  record(taskId: unknown, owner: string | undefined): Promise<TaskRecord | undefined> {
    return this.#record(taskId, owner);
  }

  /**
   * The work is still running: renews its lease for another `leaseMs`. False once the task has ended (cancelled, or
   * taken for orphaned while this instance was away) or expired: the work should stop.
   */
  async hold(taskId: string): Promise<boolean> {
    const record = await this.#raw(taskId);
    if (!record || (await this.#ends.read(taskId))) return false;
    await this.#tokens.renew(taskId, Math.min(this.limits.leaseMs, leftOf(record)));
    return true;
  }

  /**
   * This instance stops running the task's stretch without ending the task (shutdown's grace ran out, or the platform's
   * limit is near): its lease goes, and the next reader on any instance resumes the work by replay.
   */
  handOver(taskId: string): Promise<void> {
    return this.#tokens.handOver(taskId);
  }

  /** The work says where it is: the status message of a working task (2026: what progress() becomes). */
  progress(taskId: string, statusMessage: string): Promise<boolean> {
    return this.#change(taskId, (record) => ({ ...record, statusMessage }));
  }

  /**
   * Answers from `tasks/update` or the inbox: of every answer to one question, on any instance, exactly the first is
   * kept. Keys not open now (never asked, answered, or of an ended task) are ignored. Resolves once the answered keys
   * have left the open set (so a `tasks/get` right after shows them gone) with the keys this call answered, or
   * undefined when the task is not a live task of this owner.
   */
  async answer(taskId: unknown, owner: string | undefined, responses: Record<string, unknown>): Promise<string[] | undefined> {
    const record = await this.#record(taskId, owner);
    if (!record) return undefined;
    if (await this.#ends.read(record.taskId)) return [];
    // Of every answer to one question, the thread keeps the first (its claim of the question's open token).
    const { threads } = this.#parts;
    const open = new Map(record.questions);
    const taken: string[] = [];
    for (const key of Object.keys(responses))
      if (open.has(key) && (await threads.answer(record.taskId, '', key, responses[key], leftOf(record)))) taken.push(key);
    if (taken.length > 0) await this.#publish(record.taskId, { kind: 'answer', keys: taken });
    return taken;
  }

  /** The answers for the given keys (default: every key the task asked): in its record, or kept for the work to take in. */
  async answers(taskId: string, keys?: readonly string[]): Promise<Map<string, unknown>> {
    const record = await this.#raw(taskId);
    return this.#parts.threads.answers(taskId, '', record, keys ?? record?.asked ?? []);
  }

  /**
   * The work ends at a question it has no answer for: the claim token goes in first, then the new questions open (each
   * one's open token, then the record lists it), so whoever takes one of their answers finds the token to claim
   * (`claim`) and replays the work; the task is `input_required` until every one is answered. A key already asked in
   * this task's life is a programming error (keys never repeat). Its stretch is over: the next one starts with a fresh
   * count of attempts.
   */
  async park(taskId: string, questions: [string, InputRequest][]): Promise<boolean> {
    const record = await this.#raw(taskId);
    if (!record) return false;
    await this.#tokens.park(taskId, leftOf(record));
    if (questions.length === 0 && !record.cuts) return true;
    return this.#change(taskId, async (now) => ({ ...(await this.#parts.threads.ask(taskId, '', now, questions)), ...fresh(now) }));
  }

  /**
   * Claims parked work to replay it: of every instance that tries, on any backend, exactly the first gets true. The
   * lease is set first, so the task is never without both (a reader would take it for orphaned). `ttlMs`: the ms the
   * task has left to live (the caller read its record), what the lease and stretch tokens live at most.
   */
  claim(taskId: string, ttlMs: number): Promise<boolean> {
    return this.#tokens.claim(taskId, this.limits.leaseMs, Math.max(1, ttlMs));
  }

  /** A replay that could not run gives its claim back: the next answer, or a look at the task, claims it again. */
  giveBack(taskId: string, ttlMs: number): Promise<void> {
    return this.#tokens.park(taskId, Math.max(1, ttlMs));
  }

  /**
   * A step of the work finished: its result joins the record, sealed with it, for every later run of the task; the
   * stretch made progress, so its count of attempts starts again.
   */
  recordStep(taskId: string, name: string, value: unknown): Promise<boolean> {
    return this.#change(taskId, (record) => ({ ...this.#parts.threads.step(record, name, value), ...fresh(record) }));
  }

  /**
   * The work took these answers in: their questions leave the record and the answers join it (the task is `working`
   * again once no question is left).
   */
  settle(taskId: string, taken: ReadonlyMap<string, unknown>): Promise<boolean> {
    return this.#change(taskId, (record) => this.#parts.threads.settle(record, [...taken.keys()], taken));
  }

  /**
   * Ends the task, once: of the work finishing and a cancel, on any instances, the first to take the live token sets
   * the end; the others get false and change nothing.
   */
  async finish(taskId: string, end: TaskEnd): Promise<boolean> {
    const record = await this.#raw(taskId);
    return record !== undefined && this.#ends.once(record, end);
  }

  /**
   * Cancels the owner's task: `cancelled` at once unless it already ended, and its end on its channel for the work.
   * Resolves 'cancelled', 'ended' (it had ended before: 2026 acks, 2025 answers -32602), or undefined for no such task.
   */
  async cancel(taskId: unknown, owner: string | undefined, statusMessage?: string): Promise<'cancelled' | 'ended' | undefined> {
    const record = await this.#record(taskId, owner);
    if (!record) return undefined;
    const end: TaskEnd = statusMessage === undefined ? { status: 'cancelled' } : { status: 'cancelled', statusMessage };
    return (await this.#ends.once(record, end)) ? 'cancelled' : 'ended';
  }

  /**
   * Hears the task's answers, the work's changes and its end (a cancel included), published on any instance when the backend has pub/sub, on this store
   * object otherwise (then the work also reads the store every pollIntervalMs). Resolves once listening.
   */
  async listen(taskId: string, onEvent: (event: TaskEvent) => void): Promise<() => Promise<void>> {
    return this.home.backend.subscribe(await this.#parts.channel(taskId), (message) => {
      const event = parseEvent(message);
      if (event) onEvent(event);
    });
  }

  /** The owner's tasks that have not expired, oldest first (2025-11-25 tasks/list; never for anonymous callers). */
  async list(owner: string): Promise<TaskSnapshot[]> {
    const ids = await this.#owners.taskIds(await this.#parts.owner(owner));
    const found = await Promise.all(ids.map((id) => this.snapshot(id, owner)));
    return found.filter((s): s is TaskSnapshot => s !== undefined).sort((a, b) => a.createdAt - b.createdAt);
  }

  async #record(taskId: unknown, owner: string | undefined): Promise<TaskRecord | undefined> {
    // Fast path: an id of the wrong shape (`__proto__`, a probe) is unknown without a look in the store.
    if (!isTaskId(taskId)) return undefined;
    const record = await this.#raw(taskId);
    return record && (record.owner === undefined || record.owner === owner) ? record : undefined;
  }

  async #raw(taskId: string): Promise<TaskRecord | undefined> {
    const record = taskRecordOf(await this.#parts.threads.read<unknown>(taskId, ''));
    if (!isObject(record) || record.taskId !== taskId) return undefined;
    if (record.keyed) this.#parts.keyed(taskId);
    return record.createdAt + record.ttlMs > Date.now() ? record : undefined;
  }

  /** The work of this task stopped on this instance: it no longer counts among the tasks this process runs. */
  released(taskId: string): void {
    this.#ledger.release(taskId);
  }

  /**
   * Nobody runs the work and it is not parked: a reader that claims the cut stretch resumes it (through `resumeWith`),
   * unless it was cut tasks.attempts times; work with no stretch to resume (no `run`) is ORPHANED. True when it ended.
   */
  async #lapsed(record: TaskRecord, keepAlive: KeepAlive | undefined): Promise<boolean> {
    const { taskId } = record;
    if (await this.#tokens.held(taskId)) return false;
    if (record.cuts === undefined) {
      await this.#ends.once(record, ORPHANED);
      return true;
    }
    // Another reader resumed it first (or it parked or ended meanwhile): it runs, or its state shows.
    if (!(await this.#tokens.takeCut(taskId, this.limits.leaseMs, leftOf(record)))) return false;
    const now = (await this.#raw(taskId)) ?? record;
    const cuts = (now.cuts ?? 0) + 1;
    if (cuts >= this.limits.attempts || !this.#resume) {
      await this.#ends.once(now, cutTooOften(cuts));
      return true;
    }
    await this.#change(taskId, (latest) => ({ ...latest, cuts }));
    this.#resume({ taskId, owner: now.owner }, keepAlive);
    return false;
  }

  /** A change the work makes to its live record, one at a time in this instance; false once it expired or is gone. */
  #change(taskId: string, change: (record: TaskRecord) => TaskRecord | Promise<TaskRecord>): Promise<boolean> {
    return this.#serial.run(taskId, async () => {
      const record = await this.#raw(taskId);
      if (!record) return false;
      const next = { ...(await change(record)), lastUpdatedAt: Date.now() };
      const ttl = next.createdAt + next.ttlMs - next.lastUpdatedAt;
      if (ttl <= 0) return false;
      await this.#parts.threads.write(taskId, '', next);
      await this.#publish(taskId, { kind: 'changed' });
      return true;
    });
  }

  async #publish(taskId: string, event: TaskEvent): Promise<void> {
    await this.home.backend.publish(await this.#parts.channel(taskId), JSON.stringify(event));
  }
}
