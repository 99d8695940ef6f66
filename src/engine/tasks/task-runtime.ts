// The task runtime a server loads when a tool may run as a task (app/ through #node-only, so an edge bundle without
// tasks carries none of it): the store, the calls that become tasks, and the lookups behind tasks/get|update|cancel.
import type { StoreCrypto } from '../../crypto';
import { invalidParams, isObject } from '../../protocol';
import type { RequestScope } from '../../model';
import type { ParleyServer, TaskRuntime } from '../server';
import { callMaybeTask, ownerOf } from './task-call';
import { legacyTaskRuntime } from '../legacy/tasks';
import { claimAndReplay, resumeTask, withdrawCopies } from './task-replay';
import type { TaskLimits } from './task-limits';
import { type TaskHome, TaskStore } from './task-store';
import { detailedTask, taskAck, taskGetResult } from './task-wire';
import { followTasks } from './task-follow';
import { TaskFollowers } from './task-followers';
import { declaresTasks, tasksRequired } from './task-methods';

/** How many tasks one listen stream may follow (as many as the resources it may watch). */
const MAX_FOLLOWED = 100;

// One message for unknown, expired and another caller's: the answer must not tell them apart.
const notFound = () => invalidParams('Task not found: no live task with this id for this caller');

/** A replay goes on after the response: on a Worker, under its ctx.waitUntil. */
const continued = ({ keepAlive }: Pick<RequestScope, 'keepAlive'>, replay: Promise<unknown>): void => keepAlive?.waitUntil(replay);

/**
 * What to set so a server with a task tool has a store to keep tasks in. On an edge runtime it must be one every isolate
 * reaches, or a tasks/get on another isolate finds nothing. Here, not in app/, so an edge bundle without tasks has none of it.
 */
export function whereToKeepTasks(edge: boolean): string {
  return edge
    ? "on an edge runtime that is Redis over HTTP or, on Cloudflare Workers, Durable Objects: set elicitation: { enabled: true } with UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (or elicitation.redis: { provider: 'upstash' }), and call enableRedisHttp() from 'parley-mcp/redis-http' in the Worker's entry; or bind the ParleyStore class as PARLEY_STORE in wrangler.toml, export it from the entry and call enableDurableObjects() from 'parley-mcp/cloudflare'"
    : 'set elicitation: { enabled: true }';
}

/** What the runtime runs with besides its store and limits: the platform's crypto, and the server that replays work. */
interface RuntimeParts {
  /** The platform's (WebCrypto's when left out). */
  crypto?: StoreCrypto;
  /** The server once built: a cut stretch of work a reader here claims is replayed with it. */
  server?: () => ParleyServer;
}

/** Tasks kept in `home` (the elicitation store's backend, prefix and secret), within `limits` (config.tasks'). */
export function createTaskRuntime(home: TaskHome, limits: TaskLimits, { crypto, server }: RuntimeParts = {}): TaskRuntime {
  const store = new TaskStore(home, limits, crypto);
  const followers = new TaskFollowers(store);
  // A stretch cut mid-way (its instance died, or the platform's limit) that a reader here claimed: replayed here.
  if (server) store.resumeWith((task, keepAlive) => continued({ keepAlive }, resumeTask(server(), store, task, { keepAlive })));
  return {
    legacy: legacyTaskRuntime(store, followers),
    call: (server, { entry, args, params }, scope) => callMaybeTask(server, store, { entry, args, scope }, { via: 'rounds', params }),
    async get(server, taskId, scope) {
      const owner = ownerOf(scope);
      const task = await store.snapshot(taskId, owner, scope.keepAlive);
      if (!task) throw notFound();
      // Answered work that a failed replay gave back: this look continues it.
      if (task.replayDue) continued(scope, claimAndReplay(server, store, { taskId: task.taskId, owner }, scope));
      return taskGetResult(task);
    },
    async update(server, taskId, responses, scope) {
      // An answer is an object (ElicitResult, CreateMessageResult, ListRootsResult); anything else leaves its question open.
      const answers = Object.fromEntries(Object.entries(responses).filter(([, value]) => isObject(value)));
      const owner = ownerOf(scope);
      const taken = await store.answer(taskId, owner, answers);
      if (taken === undefined) throw notFound();
      // Work parked at a question: the first instance to claim it replays it, after the acknowledgement.
      // No parked work to claim: the work runs somewhere, or its stretch was cut, and a look resumes it.
      if (taken.length > 0)
        continued(
          scope,
          claimAndReplay(server, store, { taskId, owner }, scope).then(async (claimed) => {
            if (!claimed) await store.snapshot(taskId, owner, scope.keepAlive).catch(() => undefined);
          }),
        );
      return taskAck();
    },
    async answerFromInbox(server, { taskId, owner, key }, answer, keepAlive) {
      const taken = await store.answer(taskId, owner, { [key]: answer });
      if (taken === undefined) return 'gone';
      if (!taken.includes(key)) return 'answered-before';
      // As for tasks/update: this instance claims the parked work and replays it, after the person's acknowledgement.
      continued({ keepAlive }, claimAndReplay(server, store, { taskId, owner }, { keepAlive }));
      return 'answered';
    },
    async cancel(server, taskId, scope) {
      const owner = ownerOf(scope);
      // Its record before the end drops what finds the inbox (its caller), when a copy may be there.
      const record = server.questions ? await store.record(taskId, owner) : undefined;
      const done = await store.cancel(taskId, owner, 'Cancelled by the client');
      // A task that had already ended is acknowledged too (idempotent, as the conformance suite has it).
      if (done === undefined) throw notFound();
      if (done === 'cancelled') await withdrawCopies(server, record);
      return taskAck();
    },
    close: (graceMs) => store.stretches.drain(graceMs),
    follow(taskIds, { auth, capabilities }, send) {
      if (!declaresTasks(capabilities)) throw tasksRequired('subscriptions/listen with params.notifications.taskIds');
      if (!Array.isArray(taskIds) || !taskIds.every((t) => typeof t === 'string') || taskIds.length > MAX_FOLLOWED)
        throw invalidParams(`params.notifications.taskIds must be an array of at most ${MAX_FOLLOWED} task ids`);
      return followTasks({ followers, taskIds, owner: ownerOf({ auth }), send: (task) => send(detailedTask(task)) });
    },
  };
}
