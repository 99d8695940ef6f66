// A 2026-07-28 task followed to its end: tasks/get at the server's pace (kept between the client's floor and cap), each
// question asked once of the one handler and answered with tasks/update, the caller's abort sent as tasks/cancel.
import { McpWireError, isObject } from '../protocol';
import { McpClientError } from './errors';
import type { CallOptions, ElicitAnswer, ElicitRequestParams, TaskOptions, TaskState, TaskStatus } from './types';

/** The extension's name, in each request's `_meta` client capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

const STATUSES = new Set<TaskStatus>(['working', 'input_required', 'completed', 'failed', 'cancelled']);
/** Used when the server suggests no interval. */
const DEFAULT_POLL_MS = 1000;
/** How long an abort waits for the server to take its tasks/cancel. */
const CANCEL_WAIT_MS = 10_000;

/** What following a task needs from its session. */
interface TaskIo {
  /** One request to its result (a JSON-RPC error throws McpWireError). */
  request(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, any>>;
  /** The one handler's answer to one question. */
  ask(params: ElicitRequestParams, signal: AbortSignal): Promise<ElicitAnswer>;
}

/** How often a follower sends a request again that a server refused as it shut down, before it gives up. */
const SHUTDOWN_TRIES = 10;
/** The longest a follower waits for a shutting-down server's Retry-After. */
const SHUTDOWN_WAIT_CAP_MS = 5_000;

/**
 * The io's requests, each sent again while the server refuses it because it is shutting down (`SHUTTING_DOWN`, as in a
 * rolling restart): it refused it before doing anything, and said when to call again. A follower's requests (tasks/get,
 * tasks/update, tasks/result) reach whichever instance is up next, so the task goes on instead of the call failing.
 */
function throughRestarts<T extends Pick<TaskIo, 'request'>>(io: T): T {
  const request: TaskIo['request'] = async (method, params, signal) => {
    for (let tries = 1; ; tries++) {
      try {
        return await io.request(method, params, signal);
      } catch (error) {
        const wait = shutdownWait(error);
        if (wait === undefined || tries >= SHUTDOWN_TRIES) throw error;
        await sleep(wait, signal);
      }
    }
  };
  return { ...io, request };
}

/** How long to wait before calling again, for a server's refusal as it shuts down; undefined for any other error. */
function shutdownWait(error: unknown): number | undefined {
  if (!(error instanceof McpWireError) || !isObject(error.data) || error.data.code !== 'SHUTTING_DOWN') return undefined;
  const seconds = error.data.retryAfterSeconds;
  return Math.min(SHUTDOWN_WAIT_CAP_MS, typeof seconds === 'number' && seconds > 0 ? seconds * 1000 : 1000);
}

/** The client's bounds on the server's suggested interval. */
export function pollPace(options: TaskOptions = {}): (suggested: unknown) => number {
  const min = options.minPollMs ?? 100;
  const max = options.maxPollMs ?? 30_000;
  return (suggested) =>
    Math.min(max, Math.max(min, typeof suggested === 'number' && Number.isFinite(suggested) ? suggested : DEFAULT_POLL_MS));
}

/** A task object from the server, checked: its id, a known status, and the field its status carries. */
export function taskStateOf(value: Record<string, any>, taskId?: string): TaskState {
  if (typeof value.taskId !== 'string' || (taskId !== undefined && value.taskId !== taskId))
    throw new McpClientError(
      `The server answered with a task whose taskId is ${JSON.stringify(value.taskId)}, expected ${taskId ?? 'a string'}`,
    );
  if (!STATUSES.has(value.status)) throw new McpClientError(`Task ${value.taskId} has an unknown status ${JSON.stringify(value.status)}`);
  if (value.status === 'completed' && !isObject(value.result)) throw new McpClientError(`Task ${value.taskId} completed without a result`);
  if (value.status === 'failed' && !isObject(value.error)) throw new McpClientError(`Task ${value.taskId} failed without an error`);
  return value as TaskState;
}

/** Follows a task from its first state to its end and returns the tool's result; see the file's first line. */
export async function followTask(
  first: TaskState,
  given: TaskIo,
  pace: (suggested: unknown) => number,
  options: CallOptions,
): Promise<Record<string, any>> {
  const io = throughRestarts(given);
  const { taskId } = first;
  const signal = options.signal;
  /** Every key ever seen: keys are unique for the task's life, so each is asked once. */
  const seen = new Set<string>();
  /** Questions being asked or waiting their turn; aborted when the server stops showing them. */
  const open = new Map<string, AbortController>();
  let turn: Promise<void> = Promise.resolve(); // one question in front of the person at a time
  let broken: unknown; // a question the client could not answer or send
  const report = reporter(options);
  let state = first;
  try {
    for (;;) {
      report(state);
      if (state.status === 'completed') return state.result as Record<string, any>;
      if (state.status === 'failed') {
        const { code, message, data } = state.error as { code?: unknown; message?: unknown; data?: unknown };
        throw new McpWireError(typeof code === 'number' ? code : -32603, typeof message === 'string' ? message : 'The task failed', data);
      }
      if (state.status === 'cancelled') throw cancelledError(state);
      const requests = state.status === 'input_required' && isObject(state.inputRequests) ? Object.entries(state.inputRequests) : [];
      const showing = new Set(requests.map(([key]) => key));
      for (const [key, controller] of open)
        if (!showing.has(key)) controller.abort(new McpClientError('The server no longer waits for this answer'));
      for (const [key, request] of requests) {
        if (seen.has(key)) continue;
        seen.add(key);
        if (request?.method !== 'elicitation/create')
          throw new McpClientError(`Task ${taskId} asked for ${String(request?.method)}, which this client did not declare`);
        const controller = new AbortController();
        open.set(key, controller);
        const answer = async () => {
          if (controller.signal.aborted) return;
          const given = await io.ask((request.params ?? {}) as ElicitRequestParams, controller.signal);
          if (controller.signal.aborted) return; // answered elsewhere, or the task went on without it
          const inputResponses: Record<string, unknown> = Object.create(null); // the server's key, whatever its name
          inputResponses[key] = given;
          await io.request('tasks/update', { taskId, inputResponses }, signal);
        };
        turn = turn
          .then(answer)
          .catch((error: unknown) => void (broken ??= error))
          .finally(() => open.delete(key));
      }
      if (broken) throw broken;
      await sleep(pace(state.pollIntervalMs), signal);
      state = taskStateOf(await io.request('tasks/get', { taskId }, signal), taskId);
    }
  } catch (error) {
    return giveUp(error, state, io, signal);
  } finally {
    for (const controller of open.values()) controller.abort(new McpClientError('The task ended'));
  }
}

/** 2025-11-25's Task (`ttl`, `pollInterval`), read as the client's TaskState; undefined for anything else. */
export function legacyTaskOf(value: unknown): TaskState | undefined {
  // Nothing is inlined on this era: the result or error comes from tasks/result.
  if (!isObject(value) || typeof value.taskId !== 'string' || !STATUSES.has(value.status as TaskStatus)) return undefined;
  const { ttl, pollInterval, ...rest } = value;
  return { ...rest, ttlMs: ttl, pollIntervalMs: pollInterval } as TaskState;
}

/**
 * Follows a 2025-11-25 task: tasks/get while it works; once it asks (input_required) or ends, tasks/result, which the
 * server answers when the task ends, sending the task's questions on that stream meanwhile (the session answers them).
 */
export async function followLegacyTask(
  first: TaskState,
  given: Pick<TaskIo, 'request'>,
  pace: (suggested: unknown) => number,
  options: CallOptions,
): Promise<Record<string, any>> {
  const io = throughRestarts(given);
  const { taskId } = first;
  const signal = options.signal;
  const report = reporter(options);
  let state = first;
  try {
    for (;;) {
      report(state);
      if (state.status === 'cancelled') throw cancelledError(state);
      if (state.status !== 'working') return await io.request('tasks/result', { taskId }, signal);
      await sleep(pace(state.pollIntervalMs), signal);
      const next = legacyTaskOf(await io.request('tasks/get', { taskId }, signal));
      if (next?.taskId !== taskId) throw new McpClientError(`tasks/get answered with no readable task ${taskId}`);
      state = next;
    }
  } catch (error) {
    return giveUp(error, state, io, signal);
  }
}

/** Calls onTaskStatus when the status or statusMessage differs from the last call's, not on every poll. */
function reporter(options: CallOptions): (state: TaskState) => void {
  let last: string | undefined;
  return (state) => {
    const news = JSON.stringify([state.status, state.statusMessage]);
    if (news !== last) options.onTaskStatus?.(state);
    last = news;
  };
}

const cancelledError = (state: TaskState): DOMException =>
  new DOMException(`Task ${state.taskId} was cancelled${state.statusMessage ? `: ${state.statusMessage}` : ''}`, 'AbortError');

/** A follow that threw: unless the server ended the task, the client gave up on it (an abort, an answer it could not send), so tell the server to stop. */
async function giveUp(error: unknown, state: TaskState, io: Pick<TaskIo, 'request'>, signal: AbortSignal | undefined): Promise<never> {
  if (!(error instanceof McpWireError) && state.status !== 'cancelled')
    await io.request('tasks/cancel', { taskId: state.taskId }, AbortSignal.timeout(CANCEL_WAIT_MS)).catch(() => {});
  throw signal?.aborted ? signal.reason : error;
}

/** Waits, or throws the signal's reason as soon as it fires. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
