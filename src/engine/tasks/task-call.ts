// A 2026-07-28 tools/call that may become a task: the tool runs with the round's asker until it calls startTask();
// then the task is created in the store, the call answers with the CreateTaskResult, and the run goes on in the
// background with the task's asker, signal and status message until it ends the task.
import { ElicitationNotSupportedError, McpWireError, toWireError } from '../../protocol';
import type { Asker, ElicitParams, OtherInputMethod, RawAnswer, RecordedStep } from '../../elicitation';
import type { AuthInfo, ElicitOptions, Notifier, RequestScope } from '../../model';
import { callerKey } from '../round-call';
import { routed, type Route } from '../route';
import { type CalledTool, runTool } from '../run-tool';
import type { ParleyServer } from '../server';
import type { TaskEnd } from './task-record';
import type { TaskStore } from './task-store';
import type { TaskInbox } from './task-inbox';
import { createTaskResult } from './task-wire';
import { TaskWork } from './task-work';

/** The task's owner: the verified caller, or nobody (an anonymous task belongs to whoever holds its id). */
export const ownerOf = ({ auth }: Pick<RequestScope, 'auth'>): string | undefined => (auth.anonymous ? undefined : callerKey(auth));

/**
 * The inbox a task of this caller's also asks in (its owner's: docs/tasks.md, "Answered in the inbox"), or undefined
 * for a caller with no subject (anonymous, no session) or a server without persistent questions.
 */
export function inboxOf(
  server: ParleyServer,
  auth: AuthInfo,
  signal: AbortSignal,
  tool: string,
  keepAlive?: RequestScope['keepAlive'],
): TaskInbox | undefined {
  const questions = server.questions?.forCall(auth, signal, keepAlive ? { keepAlive } : {});
  if (!questions?.subject) return undefined;
  const { unanswered: policy, loadUnanswered } = server.elicitSettings;
  return {
    questions,
    tool,
    signedIn: !auth.anonymous,
    // The policy's module is loaded only for a call that sets its own.
    policyOf: async (option) => (option ? (await loadUnanswered()).policyFor(policy, option) : policy),
  };
}

/** Runs the tool; answers with its result, its round, or (once it called startTask) the task's handle. */
export function callMaybeTask(server: ParleyServer, store: TaskStore, called: CalledTool, route: Route): Promise<Record<string, unknown>> {
  const { entry, args, scope } = called;
  return new Promise((resolve, reject) => {
    const call = new TaskCall(store, called, resolve, () => inboxOf(server, scope.auth, scope.signal, entry.name, scope.keepAlive));
    // The run includes writing the task's end: on a Worker, work after the promise ctx.waitUntil holds is cut.
    call.run = routed(server, scope, route, { method: 'tools/call', name: entry.name, args }, (asker) => {
      call.before = asker;
      return runTool(server, { entry, args, scope: call.scope, asker: call });
    }).then(
      // Work that parked at a question is over here: the instance that claims its answer replays it.
      (result) => (call.work ? call.work.parked || call.end({ status: 'completed', result }) : ((call.answered = true), resolve(result))),
      (error: unknown) => (call.work ? call.end(failure(error, server)) : ((call.answered = true), reject(error))),
    );
  });
}

// A task's stretch past its platform's limit hands itself over (or ends) this long before the cut, while it still runs.
const END_MARGIN_MS = 1_000;

/**
 * How a task ends whose work, which cannot be resumed (an older client's task has no `run`), ran as long as the
 * platform lets work run after a response (a Worker's ctx.waitUntil).
 */
function outlived(afterResponseMs: number): TaskEnd {
  const message = `The task's work ran as long as this platform lets work run after a response (${afterResponseMs / 1000} s on Cloudflare Workers, under ctx.waitUntil), so it stopped before the task ended; call the tool again, or run tasks this long on Node.js`;
  return { status: 'failed', error: { code: -32603, message }, statusMessage: message };
}

/**
 * Keeps a task's run (its end written included) alive after the response where the platform stops it otherwise (a
 * Worker's ctx.waitUntil). Just before the platform would cut the run, work that can be replayed hands its stretch over
 * (the next poll, on any isolate, resumes it from its last step, within tasks.attempts); other work ends `failed`,
 * saying why.
 */
export function keepRunning(keepAlive: RequestScope['keepAlive'], work: TaskWork, run: Promise<unknown>): void {
  keepAlive?.waitUntil(run);
  const limit = keepAlive?.afterResponseMs;
  if (limit === undefined) return;
  const stop = () => {
    const stopped = work.task.run ? work.handOver() : work.expire(outlived(limit));
    keepAlive?.waitUntil(stopped.catch(() => undefined));
  };
  const cut = setTimeout(stop, Math.max(0, limit - END_MARGIN_MS));
  const clear = () => clearTimeout(cut);
  run.then(clear, clear);
}

/** A protocol error thrown by the run ends the task `failed` with it (a tool error is already a result, isError). */
export function failure(error: unknown, server: ParleyServer): TaskEnd {
  const wire = error instanceof McpWireError ? error : toWireError(error, server.logger);
  return { status: 'failed', error: wire.toJSON(), statusMessage: wire.message };
}

/** One call's asker: the round's until the task starts, the task's after. */
class TaskCall implements Asker {
  before!: Asker;
  work: TaskWork | undefined;
  run: Promise<unknown> | undefined;
  /** The call answered without a task (the run ended while startTask() was still creating one). */
  answered = false;
  readonly scope: RequestScope;
  #starting: Promise<boolean> | undefined;
  #wake: (() => void) | undefined;

  /** The request's own scope, before the task's takes over. */
  private readonly outer: RequestScope;

  constructor(
    private readonly store: TaskStore,
    private readonly called: CalledTool,
    private readonly answer: (result: Record<string, unknown>) => void,
    private readonly inbox: () => TaskInbox | undefined,
  ) {
    this.outer = called.scope;
    this.scope = taskScope(called.scope, this);
  }

  /** The unanswered-question policy acts on rounds; inside a task it leaves questions alone. */
  get route(): Asker['route'] {
    return this.work ? undefined : this.before.route;
  }

  onSuspend(wake: () => void): void {
    this.#wake = wake;
    this.before.onSuspend?.(wake);
  }

  canShow(mode: 'form' | 'url'): boolean {
    return (this.work ?? this.before).canShow?.(mode) ?? false;
  }

  ask(key: string, params: ElicitParams, options: ElicitOptions, stop?: AbortSignal): Promise<RawAnswer> {
    return (this.work ?? this.before).ask(key, params, options, stop);
  }

  known(key: string): { replayed: boolean } | undefined {
    return (this.work ?? this.before).known?.(key);
  }

  request(key: string, method: OtherInputMethod, params: Record<string, unknown>): Promise<RawAnswer> {
    const asker = this.work ?? this.before;
    if (!asker.request) throw new ElicitationNotSupportedError(`This client cannot be asked for ${method}`);
    return asker.request(key, method, params);
  }

  recall(key: string): RawAnswer | undefined {
    return this.work ? undefined : this.before.recall?.(key);
  }

  remember(key: string, answer: RawAnswer): void {
    if (!this.work) this.before.remember?.(key, answer);
  }

  stepResult(name: string): RecordedStep | undefined {
    return (this.work ?? this.before).stepResult?.(name);
  }

  recordStep(name: string, value: unknown): void | Promise<unknown> {
    return (this.work ?? this.before).recordStep?.(name, value);
  }

  startTask(): Promise<boolean> {
    return (this.#starting ??= this.#start());
  }

  /** Creates the task (in the store before anyone hears of it), then answers the call with its handle. */
  async #start(): Promise<boolean> {
    const owner = ownerOf(this.outer);
    const { client } = this.outer;
    const { args } = this.called;
    const { capabilities } = this.outer;
    const record = await this.store.create({
      ...(owner === undefined ? {} : { owner }),
      // An anonymous caller's tasks are counted by its address (all anonymous callers would be one caller otherwise).
      ...(owner === undefined && client !== undefined ? { address: client } : {}),
      tool: this.called.entry.name,
      // What a replay of the work runs with; the caller's token is not kept.
      run: { args, auth: { ...this.outer.auth, token: undefined }, capabilities },
      ...this.before.carried?.(),
    });
    const work = await TaskWork.start(this.store, record, capabilities, this.inbox());
    work.onSuspend(() => this.#wake?.());
    // A run that ended without awaiting startTask() answered already: its task ends at once, nobody to run it.
    if (this.answered) {
      await work.finish({ status: 'failed', error: { code: -32603, message: 'The tool ended before its task started' } });
      return false;
    }
    this.work = work;
    // The run outlives the response: a Worker would stop it with the response otherwise, and cuts it some time after.
    if (this.run) keepRunning(this.outer.keepAlive, work, this.run);
    this.answer(createTaskResult({ ...record, status: 'working' }));
    return true;
  }

  /** The run is over: its outcome ends the task, unless a cancel (or the lease) ended it first. */
  async end(end: TaskEnd): Promise<void> {
    await this.work?.finish(end).catch(() => this.work?.close());
  }

  readonly notifier = taskNotifier(() => this.work);
}

/**
 * 2026-07-28 has no progress notification on a task: progress is its status message, and so is what the work waits
 * for (a persistent question's "Waiting for group finance (2 must accept) …"); log lines are not sent.
 */
export const taskNotifier = (work: () => TaskWork | undefined): Notifier => {
  const say = (text: string) =>
    void work()
      ?.progress(text)
      .catch(() => undefined);
  return {
    progress: (progress, total, message) => say(message ?? (total === undefined ? `${progress}` : `${progress}/${total}`)),
    log: () => undefined,
    waiting: say,
  };
};

/** The request's scope for the run: its signal and notifications become the task's once it starts. */
function taskScope(outer: RequestScope, call: TaskCall): RequestScope {
  return {
    auth: outer.auth,
    capabilities: outer.capabilities,
    changes: outer.changes,
    ...(outer.trace ? { trace: outer.trace } : {}),
    get signal() {
      return call.work?.signal ?? outer.signal;
    },
    get notifier() {
      return call.work ? call.notifier : outer.notifier;
    },
  };
}
