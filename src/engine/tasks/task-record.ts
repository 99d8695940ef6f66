// What a task is in the store: its record, how it ended, its statuses, and the shape of its ids.
import { randomBytes, toBase64Url } from '../../crypto';
import type { AuthInfo } from '../../model';
import type { QuestionThread } from '../../stores';

/** The five statuses of both eras' wire. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
export type EndStatus = 'completed' | 'failed' | 'cancelled';

/** One question the task waits on, as both eras send it: a server→client request without a JSON-RPC id. */
export interface InputRequest {
  method: string;
  params: Record<string, unknown>;
}

/** A JSON-RPC error object, as a failed task carries it. */
interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * How a task ended, kept in 2026-07-28's terms: `completed` for any tool result (`isError` included), `failed` only
 * for a protocol error, `cancelled`. The 2025-11-25 projection maps `completed` with `isError` to `failed`.
 */
export type TaskEnd =
  | { status: 'completed'; result: Record<string, unknown>; statusMessage?: string }
  | { status: 'failed'; error: TaskError; statusMessage?: string }
  | { status: 'cancelled'; statusMessage?: string };

/**
 * What a replay of the work needs (docs/tasks.md, "Continued by replay"): the arguments, the caller as the tool sees it
 * (its token left out) and the client's capabilities. Sealed with the record while the task lives, dropped at its end.
 */
export interface TaskRun {
  args: Record<string, unknown>;
  auth: AuthInfo;
  capabilities: Record<string, unknown>;
}

/**
 * The task's record while it lives: a thread of the question store (stores/questions/thread.ts), its questions the
 * task's input requests, its owner the verified caller's subject (absent for an anonymous task, which belongs to whoever
 * holds its id), and beside it what is a task's own. Written at creation, then only by the instance running the work.
 * Its thread status is `waiting` while a question of `questions` is still open (`input_required`), else `answered`
 * (`working`); how it ended is its end's (TaskEnds), the thread then `ended`.
 */
export interface TaskRecord extends QuestionThread<InputRequest> {
  taskId: string;
  /** The storage name of the caller's index the task is counted in (an anonymous caller's is its address's). */
  index?: string;
  tool: string;
  statusMessage?: string;
  /** For a task whose work may end at a question and be replayed: what the replay runs with. */
  run?: TaskRun;
  /**
   * How many times the running stretch of work was cut (its instance stopped, or the platform's limit) and resumed,
   * since its last step, question or start; `tasks.attempts` bounds it. Absent: work that is never resumed (no `run`).
   */
  cuts?: number;
  /**
   * Every part of the task is under the question store's names (it was created by a release that has them): no read
   * looks under the names of the releases before (task-legacy.ts). Absent on a task such a release created.
   */
  keyed?: true;
  lastUpdatedAt: number;
  /** Counted from createdAt (its thread's expiresAt); Parley always sets one, so a task never outlives its store entry. */
  ttlMs: number;
  pollIntervalMs: number;
}

/** What `tasks/get` shows at one moment: the record, its end when it has one, and the questions still open. */
export interface TaskSnapshot {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
  pollIntervalMs: number;
  /** Only with status input_required: every question still unanswered. */
  inputRequests?: [string, InputRequest][];
  result?: Record<string, unknown>;
  error?: TaskError;
  /** Not on the wire: the work parked and its answers wait for a replay nobody runs (the one that claimed it failed). */
  replayDue?: true;
}

/** `tsk_` and 18 random bytes (144 bits), base64url: unguessable, so an anonymous task's id can be its bearer handle. */
const ID_BYTES = 18;
const TASK_ID = /^tsk_[A-Za-z0-9_-]{24}$/;

export const newTaskId = (): string => `tsk_${toBase64Url(randomBytes(ID_BYTES))}`;

/** Whether a value from outside can be a task id at all; anything else is unknown without a look in the store. */
export const isTaskId = (value: unknown): value is string => typeof value === 'string' && TASK_ID.test(value);
