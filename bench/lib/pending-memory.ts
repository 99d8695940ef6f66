// Rows 6 and 11: the memory one Parley process holds for many older-client questions waiting for their answers, and
// for many tasks waiting at a question.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { cpuSeconds } from './cpu';
import { askAndLeave, openSession } from './legacy-round';
import type { ServerProcess } from './processes';
import { answerWaiting, type Caller, waitingTask } from './task-round';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory of a process in bytes, from /proc. */
export function rssOf(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** After a full collection in a server started with --expose-gc: its RSS and what is alive (V8 heap, external memory
 * and array buffers), in bytes. The server prints them on SIGUSR2 (bench/servers/parley.ts). */
async function collected(server: ServerProcess): Promise<{ rss: number; live: number }> {
  const seen = server
    .logTail(1000)
    .split('\n')
    .filter((l) => l.startsWith('MEMORY ')).length;
  process.kill(server.pid, 'SIGUSR2');
  for (let i = 0; i < 200; i++) {
    const lines = server
      .logTail(1000)
      .split('\n')
      .filter((l) => l.startsWith('MEMORY '));
    if (lines.length > seen) {
      const [, rss, live] = lines.at(-1)!.split(' ').map(Number);
      return { rss: rss!, live: live! };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the server did not report its memory after a collection (started without --expose-gc?)');
}

/** Opens `count` calls (100 per session) that each wait on a question, and measures the server's RSS before and after,
 * as the process holds it and after a full collection (RSS and live memory): garbage not yet collected is no question's. */
export async function measurePending(
  server: ServerProcess,
  count: number,
): Promise<{ before: number; after: number; perQuestion: number; collected: { rss: number; live: number } }> {
  // One controller per call: fetch would cap a shared signal's listeners at 1,500 and warn for each call after.
  const calls = Array.from({ length: count }, () => new AbortController());
  const sessions = await Promise.all(Array.from({ length: Math.ceil(count / 100) }, () => openSession(server.url)));
  const before = rssOf(server.pid);
  const base = await collected(server);
  try {
    // In batches, so the loopback backlog is never overrun.
    for (let start = 0; start < count; start += 500)
      await Promise.all(
        Array.from({ length: Math.min(500, count - start) }, (_, i) =>
          askAndLeave(server.url, sessions[Math.floor((start + i) / 100)]!, start + i + 1, calls[start + i]!.signal),
        ),
      );
    const after = rssOf(server.pid);
    const held = await collected(server);
    return {
      before,
      after,
      perQuestion: (after - before) / count,
      collected: { rss: (held.rss - base.rss) / count, live: (held.live - base.live) / count },
    };
  } finally {
    for (const call of calls) call.abort();
  }
}

/** What the process held for `count` tasks waiting at their question (row 11), per task, in bytes. */
export interface WaitingMemory {
  count: number;
  /** Seconds it took to create them and see each wait (input_required). */
  seconds: number;
  /** RSS growth as the process holds it, before any collection. */
  perTask: number;
  /** After a full collection: RSS, and what is alive (V8 heap, external memory, array buffers). */
  collected: { rss: number; live: number };
  /** Cores' worth of CPU the server used while the tasks waited and nobody called it (5 s). */
  restCores: number;
  /** redis-server's own memory (`used_memory`) per task, when the tasks are kept there. */
  redisBytes?: number;
  /** Of the sampled tasks answered afterwards with tasks/update, how many completed (all must), and the first failure. */
  answered: { sampled: number; completed: number; failure?: string };
}

/** redis-server's used_memory, in bytes, through redis-cli. */
async function redisUsedMemory(port: number): Promise<number> {
  const { stdout } = await promisify(execFile)('redis-cli', ['-p', String(port), 'info', 'memory']);
  return Number(/^used_memory:(\d+)/m.exec(stdout)?.[1]);
}

/**
 * Creates `count` one-question tasks on `server` (100 per caller: `callers(c)` is the c-th; `callers(-1)` warms up) and
 * waits until every one is `input_required`; measures the process's memory before and after (RSS, and after a full
 * collection, as row 6 does), its CPU while they wait, and with `redisPort` the records' size in redis-server. Then
 * answers ten of them and checks that they complete: a task that waits must still be answerable.
 */
export async function measureWaitingTasks(
  server: ServerProcess,
  count: number,
  options: { callers: (c: number) => Caller; redisPort?: number },
): Promise<WaitingMemory> {
  const warm = options.callers(-1);
  for (let i = 0; i < 20; i++) await answerWaiting(server.url, await waitingTask(server.url, -i - 1, warm), warm);
  await pause(500);
  const base = await collected(server);
  const before = rssOf(server.pid);
  const redisBefore = options.redisPort === undefined ? NaN : await redisUsedMemory(options.redisPort);
  const t0 = performance.now();
  const waiting: { taskId: string; key: string; id: string }[] = [];
  // 100 at a time, each batch one caller's.
  for (let start = 0; start < count; start += 100) {
    const caller = options.callers(start / 100);
    waiting.push(
      ...(await Promise.all(Array.from({ length: Math.min(100, count - start) }, (_, i) => waitingTask(server.url, start + i, caller)))),
    );
  }
  const seconds = (performance.now() - t0) / 1000;
  await pause(1000);
  const after = rssOf(server.pid);
  const cpu0 = cpuSeconds(server.pid);
  await pause(5000);
  const restCores = (cpuSeconds(server.pid) - cpu0) / 5;
  const held = await collected(server);
  const redisAfter = options.redisPort === undefined ? NaN : await redisUsedMemory(options.redisPort);
  const sample = Array.from({ length: 10 }, (_, i) => Math.floor((i * count) / 10));
  let completed = 0;
  let failure: string | undefined;
  for (const i of sample)
    completed += await answerWaiting(server.url, waiting[i]!, options.callers(Math.floor(i / 100))).then(
      () => 1,
      (error: Error) => ((failure ??= `task ${i}: ${error.message}`), 0),
    );
  return {
    count,
    seconds,
    perTask: (after - before) / count,
    collected: { rss: (held.rss - base.rss) / count, live: (held.live - base.live) / count },
    restCores,
    ...(options.redisPort === undefined ? {} : { redisBytes: (redisAfter - redisBefore) / count }),
    answered: { sampled: sample.length, completed, ...(failure === undefined ? {} : { failure }) },
  };
}

/**
 * Row 11's three servers: tasks that park at their question, kept in the process's memory store or in Redis; and,
 * for today's figure of a task that waits in its run, a signed-in caller's task whose question is also filed in the
 * caller's inbox (persistent questions on), which does not park yet.
 */
export type WaitingKind = 'memory' | 'redis' | 'inbox';

/** The environment of row 11's server of `kind` (bench/servers/parley-app.ts reads it), for `count` waiting tasks. */
export function waitingEnv(kind: WaitingKind, count: number, where: { redisUrl?: string; jwksUrl?: string }): Record<string, string> {
  const env: Record<string, string> = { BENCH_TASKS: '1', BENCH_TASK_LIMIT: String(count + 100) };
  if (kind === 'redis') env.BENCH_REDIS_URL = where.redisUrl!;
  if (kind === 'inbox') Object.assign(env, { BENCH_INBOX: '1', BENCH_AUTH_JWKS: where.jwksUrl! });
  return env;
}

/** Row 11's callers, 100 tasks each: anonymous ones told apart by their address, or (inbox) signed-in ones. */
export async function waitingCallers(
  kind: WaitingKind,
  count: number,
  tokenFor?: (sub: string) => Promise<string>,
): Promise<(c: number) => Caller> {
  const n = Math.ceil(count / 100);
  if (kind !== 'inbox') return (c) => ({ address: c < 0 ? '10.46.255.255' : `10.46.${c >> 8}.${c & 255}` });
  const tokens = await Promise.all(Array.from({ length: n + 1 }, (_, c) => tokenFor!(`bench-user-${c}`)));
  return (c) => ({ token: tokens[c < 0 ? n : c]! });
}
