// Tasks on 2026-07-28 across two Parley processes, followed by parley-mcp/client: each task created on instance A,
// polled and answered on instance B, through a real redis-server and through Redis over HTTP (the project's Upstash
// REST server on that redis-server). 200 at once with distinct answers, none lost or crossed; a cancel sent to B stops
// the work running on A; a task's ttl runs out across processes; A killed while its task waits: the answer sent to B
// completes it there within seconds, by replay, and the step before its question ran once. A stretch of work SIGKILLed
// mid-way is resumed on B once its lease lapsed, its step not run again (both on each store); one cut more than tasks.attempts ends failed, saying so;
// a rolling restart (SIGTERM, start, for each instance) with 200 tasks waiting for answers loses and crosses none.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpWireError } from 'parley-mcp';
import { McpClient, type TaskState } from 'parley-mcp/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startInstance, type Instance } from '../helpers/instances';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { meta, mcpRequest, read } from '../helpers/requests';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';

const FIXTURE = 'test/fixtures/task-instance-server.ts';
const TASKS = 'io.modelcontextprotocol/tasks';
const SECRETS = { MCP_ELICITATION_SECRET: 'one task secret for every instance', VAULT_SECRET: 'one state secret for every instance' };
const STEPS = mkdtempSync(join(tmpdir(), 'parley-steps-'));
const STEP_FILE = join(STEPS, 'steps.log');

let redis: RunningRedis;
let upstash: UpstashServer;
const started: Instance[] = [];
const clients: McpClient[] = [];
beforeAll(async () => {
  redis = await startRedis();
  upstash = await startUpstashServer(redis.url);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(started.map((i) => i.stop()));
  await upstash?.close();
  await redis?.stop();
  rmSync(STEPS, { recursive: true, force: true });
});

const instance = async (store: string, env: Record<string, string> = {}): Promise<Instance> => {
  const one = await startInstance({ PARLEY_TEST_STORE: store, PARLEY_TEST_STEP_FILE: STEP_FILE, ...SECRETS, ...env }, FIXTURE);
  started.push(one);
  return one;
};

/** A client whose tools/call goes to `a` and whose tasks/* go to `b`; `sent` names each request's method and instance. */
function splitClient(a: Instance, b: Instance) {
  const sent: string[] = [];
  const client = new McpClient({
    url: a.url,
    tasks: true,
    fetch: async (request) => {
      const body = await request.text();
      const method = String(JSON.parse(body).method);
      const to = method.startsWith('tasks/') ? b : a;
      sent.push(`${method} ${to === a ? 'A' : 'B'}`);
      return fetch(to.url, { method: request.method, headers: request.headers, body, signal: request.signal });
    },
  });
  clients.push(client);
  return { client, sent, count: (what: string) => sent.filter((s) => s === what).length };
}

/** The task as tasks/get on `at` shows it, read by hand (the client has no call for one request). */
async function getTask(at: Instance, taskId: string) {
  const request = mcpRequest(
    'tasks/get',
    { taskId, _meta: meta({ elicitation: {}, extensions: { [TASKS]: {} } }) },
    { url: at.url, headers: { 'mcp-name': taskId } },
  );
  return (await read(await fetch(request))).body;
}

/** Lines of the step file equal to `line`. */
const stepLines = (line: string) =>
  readFileSync(STEP_FILE, 'utf8')
    .split('\n')
    .filter((l) => l === line).length;

/** 200 tasks at once, each asking one question whose answer names the task: each must come back to its own task. */
async function twoHundredAtOnce(a: Instance, b: Instance) {
  const { client, sent, count } = splitClient(a, b);
  const asked = new Map<number, number>();
  client.onElicitation((params) => {
    const n = Number(/task (\d+)/.exec(params.message)?.[1]);
    asked.set(n, (asked.get(n) ?? 0) + 1);
    return { action: 'accept', content: { value: `answer-${n}` } };
  });
  const results = await Promise.all(Array.from({ length: 200 }, (_, n) => client.callTool({ name: 'ask_task', arguments: { n } })));
  results.forEach((result, n) => expect(result.content).toEqual([{ type: 'text', text: `task ${n} got answer-${n}` }]));
  expect([...asked.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, n) => n));
  expect([...asked.values()].every((times) => times === 1)).toBe(true);
  // Created on A, followed and answered on B, nothing else anywhere.
  expect(count('tools/call A')).toBe(200);
  expect(count('tasks/update B')).toBe(200);
  expect(count('tasks/get B')).toBeGreaterThanOrEqual(200);
  expect(sent.filter((s) => !['tools/call A', 'tasks/update B', 'tasks/get B'].includes(s))).toEqual([]);
}

/**
 * A task on a fresh instance A does a step (a line appended to a file), then waits for its answer; A is SIGKILLed, the
 * answer goes to `b`, and the task completes there by replay, its step's line appended once.
 */
async function killedWhileWaiting(store: string, b: Instance, n: number) {
  const doomed = await instance(store);
  const { client, sent } = splitClient(doomed, b);
  const seen: TaskState[] = [];
  let asked!: () => void;
  const questionShown = new Promise<void>((resolve) => (asked = resolve));
  let answer!: (value: { action: 'accept'; content: { value: string } }) => void;
  const answered = new Promise<{ action: 'accept'; content: { value: string } }>((resolve) => (answer = resolve));
  // The person answers only once the instance that ran the work is gone.
  client.onElicitation(() => (asked(), answered));
  const call = client.callTool({ name: 'step_task', arguments: { n } }, { onTaskStatus: (t) => seen.push(t) });
  await questionShown;
  await doomed.kill();
  const killedAt = Date.now();
  answer({ action: 'accept', content: { value: 'after the kill' } });
  const result = await call;
  expect(result.content).toEqual([{ type: 'text', text: `line of task ${n}; got after the kill` }]);
  // Within seconds of the answer: B replays the work at once, not after the 30 s lease of the run A held.
  expect(Date.now() - killedAt).toBeLessThan(10_000);
  expect(seen.at(-1)).toMatchObject({ status: 'completed' });
  expect(sent).toContain('tasks/update B');
  // The step ran on A, before the question; B's replay read its recorded result instead of appending again.
  expect(stepLines(`task ${n}`)).toBe(1);
}

/** Fresh instances' lease, so a stretch cut by a SIGKILL is resumed in seconds. */
const SHORT_LEASE = { PARLEY_TEST_LEASE_MS: '1500' };

/**
 * A stretch of work on a fresh instance A does its step (a line appended to a file), then works on for 3 s; A is
 * SIGKILLed mid-way, and B, polled, resumes the stretch by replay once A's lease lapsed: the task completes there, its
 * step's line appended once.
 */
async function killedMidStretch(store: string, n: number) {
  const [doomed, b] = await Promise.all([instance(store, SHORT_LEASE), instance(store, SHORT_LEASE)]);
  const { client, count } = splitClient(doomed, b);
  const seen: TaskState[] = [];
  const call = client.callTool({ name: 'slow_step_task', arguments: { n, ms: 3_000 } }, { onTaskStatus: (t) => seen.push(t) });
  // The step ran on A and its result is recorded, and A works on: then it dies. (Killed between the line and the
  // record, a step runs again on replay: a step is recorded after it ran.)
  await vi.waitFor(() => expect(doomed.log()).toContain(`recorded slow ${n}`), { timeout: 10_000 });
  expect(stepLines(`slow ${n}`)).toBe(1);
  await doomed.kill();
  const killedAt = Date.now();
  const result = await call;
  expect(result.content).toEqual([{ type: 'text', text: `line of slow ${n}; worked 3000 ms` }]);
  // Resumed after the lease (1.5 s), worked its 3 s again on B: not failed, and not after a 30 s lease.
  expect(Date.now() - killedAt).toBeLessThan(15_000);
  expect(seen.map((t) => t.status)).not.toContain('failed');
  expect(seen.at(-1)).toMatchObject({ status: 'completed' });
  expect(count('tools/call A')).toBe(1);
  // B's replay read the step's recorded result instead of appending again.
  expect(stepLines(`slow ${n}`)).toBe(1);
}

describe('tasks across two processes on a real redis-server', () => {
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    [a, b] = await Promise.all([instance(`redis:${redis.url}`), instance(`redis:${redis.url}`)]);
  });

  it('200 tasks at once, created on A, polled and answered on B: each ends with its own answer', async () => {
    await twoHundredAtOnce(a, b);
  }, 180_000);

  it('a cancel sent to B stops the work running on A, and B shows the task cancelled', async () => {
    const { client, count } = splitClient(a, b);
    const controller = new AbortController();
    let taskId: string | undefined;
    const call = client.callTool(
      { name: 'wait_task', arguments: { label: 'cancel-1' } },
      {
        signal: controller.signal,
        onTaskStatus: (task) => {
          taskId = task.taskId;
          if (task.statusMessage === 'waiting: cancel-1') controller.abort(new Error('the caller gave up'));
        },
      },
    );
    await expect(call).rejects.toThrow('the caller gave up');
    expect(count('tasks/cancel B')).toBe(1);
    // Heard on the task's channel: the work's own look at the store (its lease renewal) comes only every 10 s.
    await vi.waitFor(() => expect(a.log()).toContain('stopped cancel-1: The task was cancelled'), { timeout: 5_000 });
    expect((await getTask(b, taskId!)).result).toMatchObject({ taskId, status: 'cancelled' });
  }, 60_000);

  it('a task whose ttl runs out is unknown on B, and its work on the instance that runs it stops', async () => {
    const short = await instance(`redis:${redis.url}`, { PARLEY_TEST_TASK_TTL_MS: '2000' });
    const { client } = splitClient(short, b);
    let taskId: string | undefined;
    const call = client.callTool({ name: 'wait_task', arguments: { label: 'expire-1' } }, { onTaskStatus: (t) => (taskId = t.taskId) });
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpWireError);
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('Task not found') });
    expect((await getTask(b, taskId!)).error).toMatchObject({ code: -32602 });
    // The work's next lease renewal (a third of the lease) finds the task gone.
    await vi.waitFor(() => expect(short.log()).toContain('stopped expire-1: The task ended or expired while its work ran'), {
      timeout: 20_000,
    });
  }, 60_000);

  it('A killed while its task waits for an answer: the answer sent to B completes it there, and its step ran once', async () => {
    await killedWhileWaiting(`redis:${redis.url}`, b, 7);
  }, 60_000);
});

describe('a stretch of task work cut mid-way, on a real redis-server', () => {
  it('SIGKILLed while it works, it is resumed on B once its lease lapsed, and completes; its step ran once', async () => {
    await killedMidStretch(`redis:${redis.url}`, 1);
  }, 60_000);

  it('cut more times than tasks.attempts, it ends failed, saying how often it was cut and what to do', async () => {
    const store = `redis:${redis.url}`;
    const env = { PARLEY_TEST_LEASE_MS: '1000', PARLEY_TEST_ATTEMPTS: '2' };
    const [a, b, c] = await Promise.all([instance(store, env), instance(store, env), instance(store, env)]);
    const created = await fetch(
      mcpRequest(
        'tools/call',
        { name: 'crash_task', arguments: { n: 2 }, _meta: meta({ elicitation: {}, extensions: { [TASKS]: {} } }) },
        { url: a.url, headers: { 'mcp-name': 'crash_task' } },
      ),
    );
    const taskId = String((await read(created)).body.result.taskId);
    // A dies in the stretch; a poll on B resumes it and B dies too; C, polled next, finds it cut twice.
    const pollers = [b, c];
    let task: Record<string, any> = { status: 'working' };
    const deadline = Date.now() + 30_000;
    while (task.status === 'working' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      try {
        task = (await getTask(pollers[0]!, taskId)).result as Record<string, any>;
      } catch {
        pollers.shift(); // the poller died: it ran the resumed stretch
      }
    }
    expect(pollers).toEqual([c]);
    expect(a.log()).toContain('crashing 2');
    expect(b.log()).toContain('crashing 2');
    expect(task.status).toBe('failed');
    expect(task.error.message).toContain("The task's work was cut 2 times before it reached its next step, question or end");
    expect(task.error.message).toContain('raise tasks.attempts');
    expect(task.statusMessage).toBe(task.error.message);
    expect(stepLines('crash 2')).toBe(1);
  }, 60_000);

  it('a rolling restart with 200 tasks waiting for answers: 200/200 complete with their own answers, none failed', async () => {
    const store = `redis:${redis.url}`;
    const env = { PARLEY_TEST_GRACE_MS: '300', PARLEY_TEST_LEASE_MS: '3000' };
    const live: Instance[] = await Promise.all([instance(store, env), instance(store, env)]);
    const gone: Instance[] = [];
    let turn = 0;
    // A balancer over the instances up: round robin; a connection that fails goes to the next one.
    const balanced = async (request: Request): Promise<Response> => {
      const body = await request.text();
      for (let tries = 0; ; tries++) {
        const to = live[turn++ % live.length]!;
        try {
          return await fetch(to.url, { method: request.method, headers: request.headers, body, signal: request.signal });
        } catch (error) {
          if (tries >= 5) throw error;
        }
      }
    };
    const client = new McpClient({ url: live[0]!.url, tasks: true, fetch: balanced });
    clients.push(client);
    const asked = new Map<number, number>();
    let allAsked!: () => void;
    const everyoneAsked = new Promise<void>((resolve) => (allAsked = resolve));
    client.onElicitation(async (params) => {
      const n = Number(/task (\d+)/.exec(params.message)?.[1]);
      asked.set(n, (asked.get(n) ?? 0) + 1);
      if (asked.size === 200) allAsked();
      // The answers come over the restart: some work then runs (a second) while its instance stops.
      await everyoneAsked;
      await new Promise((resolve) => setTimeout(resolve, (n % 40) * 150));
      return { action: 'accept', content: { value: `answer-${n}` } };
    });
    const seen = new Map<number, string[]>();
    const results = Array.from({ length: 200 }, (_, n) =>
      client.callTool(
        { name: 'answer_then_work', arguments: { n } },
        { onTaskStatus: (t) => seen.set(n, [...(seen.get(n) ?? []), t.status]) },
      ),
    );
    await everyoneAsked;
    for (const _ of [0, 1]) {
      await new Promise((resolve) => setTimeout(resolve, 800));
      const old = live.shift()!;
      gone.push(old);
      await old.terminate();
      live.push(await instance(store, env));
    }
    const done = await Promise.all(results);
    done.forEach((result, n) => expect(result.content).toEqual([{ type: 'text', text: `task ${n} got answer-${n}` }]));
    expect([...asked.values()].every((times) => times === 1)).toBe(true);
    expect([...seen.values()].flat()).not.toContain('failed');
    // Work was running when an instance stopped: it was handed over, and resumed elsewhere.
    const handedOver = gone.map((i) => i.log().split('to be resumed by replay on another').length - 1);
    expect(handedOver.reduce((x, y) => x + y, 0)).toBeGreaterThan(0);
  }, 120_000);
});

describe('tasks across two processes through Redis over HTTP', () => {
  it('200 tasks at once, created on A, polled and answered on B, then A killed while a task waits: B completes it', async () => {
    const store = `upstash:${upstash.url}#${upstash.token}`;
    const [a, b] = await Promise.all([instance(store), instance(store)]);
    await twoHundredAtOnce(a, b);
    await killedWhileWaiting(store, b, 8);
  }, 180_000);

  it('a stretch SIGKILLed while it works is resumed on B once its lease lapsed, and completes; its step ran once', async () => {
    await killedMidStretch(`upstash:${upstash.url}#${upstash.token}`, 9);
  }, 60_000);
});
