// What bounds a task (config.tasks, with their defaults) and the ends a task gets when it passes one of its bounds.
import type { TaskEnd } from './task-record';

/** tasks.ended: the ended tasks kept (their end and result readable until they expire), per caller and in total. */
interface EndedLimits {
  maxPerCaller: number;
  maxBytesPerCaller: number;
  maxTotal: number;
  maxBytesTotal: number;
}

/**
 * tasks.*: how long a task lives, how often clients are asked to poll, how many live tasks a caller and the process
 * may hold, how many ended ones are kept, how long the work's lease lasts without a renewal (`hold`) before its stretch
 * is taken for cut, and how many times one stretch of work is started (its first run and its resumes) before it fails.
 */
export interface TaskLimits {
  ttlMs: number;
  pollIntervalMs: number;
  maxPerOwner: number;
  maxTotal: number;
  ended: EndedLimits;
  leaseMs: number;
  attempts: number;
}

/**
 * A day (an approval that takes an afternoon still fits), a poll a second, a hundred live tasks per caller and a
 * thousand per process, the ended tasks of docs/configuration.md, a lease of 30 s (the work renews it every 10 s;
 * a Worker's work after its response is cut at about 30 s), and three attempts at a stretch of work.
 */
export const TASK_DEFAULTS: Readonly<TaskLimits> = Object.freeze({
  ttlMs: 86_400_000,
  pollIntervalMs: 1_000,
  maxPerOwner: 100,
  maxTotal: 1_000,
  ended: Object.freeze({ maxPerCaller: 100, maxBytesPerCaller: 10_000_000, maxTotal: 10_000, maxBytesTotal: 100_000_000 }),
  leaseMs: 30_000,
  attempts: 3,
});

/** The end of a task whose work stopped renewing its lease and cannot be resumed (it has no `run`: older records). */
export const ORPHANED: Readonly<Extract<TaskEnd, { status: 'failed' }>> = Object.freeze({
  status: 'failed',
  error: Object.freeze({ code: -32603, message: 'The server instance running this task stopped before the task ended' }),
  statusMessage: 'The server instance running this task stopped before the task ended; call the tool again',
});

/** The end of a task whose result is larger than the store keeps for one caller: it fails, saying so. */
export function tooLarge(bytes: number, max: number): TaskEnd {
  const message = `The task's result is ${bytes} bytes, more than this server keeps for one caller (${max}, tasks.ended.maxBytesPerCaller)`;
  return { status: 'failed', error: { code: -32603, message }, statusMessage: message };
}

/** The end of a task whose stretch of work was cut `cuts` times (tasks.attempts) before it reached a step, question or end. */
export function cutTooOften(cuts: number): Extract<TaskEnd, { status: 'failed' }> {
  const message = `The task's work was cut ${cuts} times before it reached its next step, question or end (its instance stopped, or the platform's limit on one stretch of work: 30 s on Cloudflare Workers), so it was not resumed again: record the work's progress with this.step() so a resume goes on from there, make that stretch shorter, or raise tasks.attempts; then call the tool again`;
  return { status: 'failed', error: { code: -32603, message }, statusMessage: message };
}
