// Row 10's drivers, by hand (fetch): a task's tasks/get calls until it ends are as many as it takes, which a fixed
// autocannon sequence cannot send. Every body is checked; a cycle that went wrong is counted, never timed.
import { percentile, type Scenario } from './load';
import { isTextResult, modernRequest, resultOf, type WireRequest } from './wire';
import {
  ROUND_TOOL,
  SIMPLE_ARGS,
  SIMPLE_TEXT,
  TASK_QUESTION_TOOL,
  TASK_TOOL,
  THREE_TOOL,
  roundDone,
  roundQuestion,
  threeDone,
  threeQuestion,
  CLIENT_ADDRESS_HEADER,
} from '../servers/fixture';

/** tasks/get calls a cycle may make before it counts as lost: the client polls at once, ignoring pollIntervalMs. */
const MAX_POLLS = 10_000;

type Result = Record<string, any>;

/** Who sends a request, when not the harness's one anonymous client: a signed-in caller's token, and the address the
 * server counts an anonymous caller's tasks by (row 11's server trusts the header that says it). */
export interface Caller {
  token?: string;
  address?: string;
}

async function send(url: string, request: WireRequest, as: Caller = {}): Promise<Result> {
  const headers = {
    ...request.headers,
    ...(as.token === undefined ? {} : { authorization: `Bearer ${as.token}` }),
    ...(as.address === undefined ? {} : { [CLIENT_ADDRESS_HEADER]: as.address }),
  };
  const response = await fetch(url, { method: request.method, headers, body: request.body });
  const body = await response.text();
  const result = resultOf(body);
  if (!result) throw new Error(`${response.status} ${body.slice(0, 300)}`);
  return result;
}

/** tools/call of a task tool: the CreateTaskResult's taskId. */
async function create(url: string, name: string, args: Record<string, unknown>, as?: Caller): Promise<string> {
  const created = await send(url, modernRequest('tools/call', { name, arguments: args }, '/mcp', true), as);
  if (created.resultType !== 'task' || typeof created.taskId !== 'string') throw new Error(`created ${JSON.stringify(created)}`);
  return created.taskId;
}

/** The task as tasks/get shows it. */
export const getTask = (url: string, taskId: string, as?: Caller) => send(url, modernRequest('tasks/get', { taskId }, '/mcp', true), as);

/** Polls `url` at once and again until the task leaves `working`; counts the polls into `polls`. */
async function settle(url: string, taskId: string, polls: { n: number }): Promise<Result> {
  for (let i = 0; i < MAX_POLLS; i++) {
    polls.n++;
    const task = await getTask(url, taskId);
    if (task.status !== 'working') return task;
  }
  throw new Error(`still working after ${MAX_POLLS} tasks/get`);
}

const text = (task: Result) => task.result?.content?.[0]?.text;

/** One no-input task: created, then tasks/get until completed with the tool's text. */
async function plainTask(url: string, polls: { n: number }): Promise<void> {
  const taskId = await create(url, TASK_TOOL, SIMPLE_ARGS);
  const task = await settle(url, taskId, polls);
  if (task.status !== 'completed' || text(task) !== SIMPLE_TEXT) throw new Error(`ended ${JSON.stringify(task).slice(0, 300)}`);
}

/** Creates one no-input task and waits until it completed: its id, for the tasks/get rate. */
export async function completedTask(url: string): Promise<string> {
  const taskId = await create(url, TASK_TOOL, SIMPLE_ARGS);
  const task = await settle(url, taskId, { n: 0 });
  if (task.status !== 'completed' || text(task) !== SIMPLE_TEXT) throw new Error(`ended ${JSON.stringify(task).slice(0, 300)}`);
  return taskId;
}

/** tasks/get of a task that completed, under autocannon (kept out of scenarios.ts, whose scenarios take no task): the tool's text inlined under `result`, every time. */
export const taskGet = (taskId: string): Scenario => ({
  steps: [
    {
      request: modernRequest('tasks/get', { taskId }, '/mcp', true),
      check(body) {
        const task = resultOf(body);
        return task?.status === 'completed' && task.taskId === taskId && isTextResult(task.result, SIMPLE_TEXT);
      },
    },
  ],
});

/** One task with one question: created on `createUrl`; polled, answered with tasks/update and polled to its end on `answerUrl`. */
async function questionTask(createUrl: string, answerUrl: string, n: number, polls: { n: number }): Promise<void> {
  const id = `T-${n}`;
  const taskId = await create(createUrl, TASK_QUESTION_TOOL, { id });
  const asked = await settle(answerUrl, taskId, polls);
  const requests = Object.entries(asked.inputRequests ?? {});
  const [key, request] = requests[0] ?? [];
  if (asked.status !== 'input_required' || requests.length !== 1 || (request as Result)?.params?.message !== roundQuestion(id))
    throw new Error(`asked ${JSON.stringify(asked).slice(0, 300)}`);
  const inputResponses = { [key!]: { action: 'accept', content: { confirm: true } } };
  const ack = await send(answerUrl, modernRequest('tasks/update', { taskId, inputResponses }, '/mcp', true));
  if (ack.resultType !== 'complete') throw new Error(`tasks/update answered ${JSON.stringify(ack)}`);
  let task = asked;
  // After the answer the task may still show input_required until the instance running the work hears it.
  for (let i = 0; i < MAX_POLLS && (task.status === 'input_required' || task.status === 'working'); i++) {
    polls.n++;
    task = await getTask(answerUrl, taskId);
  }
  if (task.status !== 'completed' || text(task) !== roundDone(id)) throw new Error(`ended ${JSON.stringify(task).slice(0, 300)}`);
}

/** Parley's own 2026-07-28 round, for comparison: the call on `callUrl` answered input_required, the retry on `retryUrl`. */
async function round(callUrl: string, retryUrl: string, n: number): Promise<void> {
  const id = `R-${n}`;
  const first = await send(callUrl, modernRequest('tools/call', { name: ROUND_TOOL, arguments: { id } }));
  const [key, request] = Object.entries(first.inputRequests ?? {})[0] ?? [];
  if (first.resultType !== 'input_required' || (request as Result)?.params?.message !== roundQuestion(id))
    throw new Error(`asked ${JSON.stringify(first).slice(0, 300)}`);
  const retry = await send(
    retryUrl,
    modernRequest('tools/call', {
      name: ROUND_TOOL,
      arguments: { id },
      requestState: first.requestState,
      inputResponses: { [key!]: { action: 'accept', content: { confirm: true } } },
    }),
  );
  if (retry.resultType !== 'complete' || retry.content?.[0]?.text !== roundDone(id)) throw new Error(`result ${JSON.stringify(retry)}`);
}

/** tasks/get on `url` at once and again until `done` says so (or the task ended otherwise: then it throws). */
async function pollUntil(url: string, taskId: string, polls: { n: number }, done: (task: Result) => boolean, as?: Caller): Promise<Result> {
  for (let i = 0; i < MAX_POLLS; i++) {
    polls.n++;
    const task = await getTask(url, taskId, as);
    if (done(task)) return task;
    if (task.status !== 'working' && task.status !== 'input_required') throw new Error(`ended ${JSON.stringify(task).slice(0, 300)}`);
  }
  throw new Error(`not there after ${MAX_POLLS} tasks/get`);
}

/** The task asks exactly `message`: its one open question's key. */
const asking = (message: string) => (task: Result) => {
  if (task.status !== 'input_required') return false;
  const requests = Object.entries(task.inputRequests ?? {});
  return requests.length === 1 && (requests[0]![1] as Result)?.params?.message === message;
};
const keyOf = (task: Result) => Object.keys(task.inputRequests ?? {})[0]!;
const completedWith = (expected: string) => (task: Result) => task.status === 'completed' && text(task) === expected;

/** An accepting answer to the question `key`, sent with tasks/update; throws unless acknowledged. */
async function update(url: string, taskId: string, key: string, as?: Caller): Promise<void> {
  const inputResponses = { [key]: { action: 'accept', content: { confirm: true } } };
  const ack = await send(url, modernRequest('tasks/update', { taskId, inputResponses }, '/mcp', true), as);
  if (ack.resultType !== 'complete') throw new Error(`tasks/update answered ${JSON.stringify(ack)}`);
}

/**
 * Row 11: a one-question task created on `url` and polled until it waits at its question (`input_required`): its id
 * and the question's key, to answer later with `answerWaiting`. As `as` (a signed-in caller, or an anonymous one's address).
 */
export async function waitingTask(url: string, n: number, as?: Caller): Promise<{ taskId: string; key: string; id: string }> {
  const id = `W-${n}`;
  const taskId = await create(url, TASK_QUESTION_TOOL, { id }, as);
  const asked = await pollUntil(url, taskId, { n: 0 }, asking(roundQuestion(id)), as);
  return { taskId, key: keyOf(asked), id };
}

/** Answers a task `waitingTask` left waiting and polls it until it completed with the tool's text. */
export async function answerWaiting(url: string, task: { taskId: string; key: string; id: string }, as?: Caller): Promise<void> {
  await update(url, task.taskId, task.key, as);
  await pollUntil(url, task.taskId, { n: 0 }, completedWith(roundDone(task.id)), as);
}

/**
 * Row 12: a one-question task created on `createUrl` and polled there until it waits at its question; then, timed, its
 * answer sent with tasks/update to `answerUrl` and tasks/get there until `completed`. The cycle's time is that second
 * part: the update to the completion the client sees.
 */
async function answeredTask(createUrl: string, answerUrl: string, n: number, polls: { n: number }): Promise<number> {
  const id = `U-${n}`;
  // Each task another anonymous caller's: one caller's index, ended on B while A admits that caller's next task, loses
  // the end (bench/README.md, row 12), and after 100 such the caller is refused (429) for a day.
  const as = { address: `10.12.${(n >> 8) & 255}.${n & 255}` };
  const taskId = await create(createUrl, TASK_QUESTION_TOOL, { id }, as);
  const asked = await pollUntil(createUrl, taskId, { n: 0 }, asking(roundQuestion(id)), as);
  const t = performance.now();
  await update(answerUrl, taskId, keyOf(asked), as);
  await pollUntil(answerUrl, taskId, polls, completedWith(roundDone(id)), as);
  return performance.now() - t;
}

/**
 * Row 13: THREE_TOOL as a task on `url`: created, then three times polled until it asks its next check and answered
 * (each answer replays the work from the top), then polled until completed. Every poll counts.
 */
async function threeReplays(url: string, n: number, polls: { n: number }): Promise<void> {
  const id = `T3-${n}`;
  const taskId = await create(url, THREE_TOOL, { id });
  for (let check = 1; check <= 3; check++) {
    const asked = await pollUntil(url, taskId, polls, asking(threeQuestion(id, check)));
    await update(url, taskId, keyOf(asked));
  }
  await pollUntil(url, taskId, polls, completedWith(threeDone(id)));
}

/** Row 13's comparison: THREE_TOOL called without the tasks extension, three rounds (the call and three retries, each
 * with requestState and the newest answer). */
async function threeRounds(url: string, n: number): Promise<void> {
  const id = `R3-${n}`;
  let result = await send(url, modernRequest('tools/call', { name: THREE_TOOL, arguments: { id } }));
  for (let check = 1; check <= 3; check++) {
    if (!asking(threeQuestion(id, check))({ ...result, status: result.resultType }))
      throw new Error(`asked ${JSON.stringify(result).slice(0, 300)}`);
    const inputResponses = { [keyOf(result)]: { action: 'accept', content: { confirm: true } } };
    result = await send(
      url,
      modernRequest('tools/call', { name: THREE_TOOL, arguments: { id }, requestState: result.requestState, inputResponses }),
    );
  }
  if (result.resultType !== 'complete' || result.content?.[0]?.text !== threeDone(id)) throw new Error(`result ${JSON.stringify(result)}`);
}

export interface CyclesResult {
  cycles: number;
  cyclesPerSec: number;
  /** Per cycle, from the first request to the checked end (or the part the cycle timed itself), in ms. */
  p50: number;
  p90: number;
  p99: number;
  /** tasks/get calls per cycle (mean). */
  polls: number;
  lost: number;
  lostSample?: string;
}

/** `clients` clients run `cycle` back to back for `seconds` (or `cycles` in all). A cycle that returns a number timed
 * its own part (ms): that is counted instead of the whole cycle. */
export async function drive(
  cycle: (n: number, polls: { n: number }) => Promise<void | number>,
  options: { clients: number; seconds?: number; cycles?: number },
): Promise<CyclesResult> {
  const times: number[] = [];
  const polls = { n: 0 };
  let lost = 0;
  let lostSample: string | undefined;
  let next = 0;
  const started = performance.now();
  const until = started + (options.seconds ?? Infinity) * 1000;
  const more = () => performance.now() < until && (options.cycles === undefined || next < options.cycles);
  await Promise.all(
    Array.from({ length: options.clients }, async () => {
      while (more()) {
        const t = performance.now();
        try {
          const own = await cycle(++next, polls);
          times.push(typeof own === 'number' ? own : performance.now() - t);
        } catch (e) {
          lost++;
          lostSample ??= (e as Error).message.slice(0, 300);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const cycles = times.length + lost;
  return {
    cycles,
    cyclesPerSec: times.length / elapsed,
    p50: percentile(times, 50),
    p90: percentile(times, 90),
    p99: percentile(times, 99),
    polls: polls.n / Math.max(1, cycles),
    lost,
    lostSample,
  };
}

type Options = { clients: number; seconds?: number; cycles?: number };

/** (a) No-input tasks, create → completed, on one server. */
export const runPlainTasks = (url: string, options: Options) => drive((_n, polls) => plainTask(url, polls), options);
/** (c) One-question tasks: created on `createUrl`, answered and polled on `answerUrl`. */
export const runQuestionTasks = (createUrl: string, answerUrl: string, options: Options) =>
  drive((n, polls) => questionTask(createUrl, answerUrl, n, polls), options);
/** (d) Parley's round: the call on `callUrl`, the retry on `retryUrl`. */
export const runRounds = (callUrl: string, retryUrl: string, options: Options) => drive((n) => round(callUrl, retryUrl, n), options);
/** Row 12: one-question tasks created on `createUrl`, answered on `answerUrl`; timed from the update to completed. */
export const runAnsweredTasks = (createUrl: string, answerUrl: string, options: Options) =>
  drive((n, polls) => answeredTask(createUrl, answerUrl, n, polls), options);
/** Row 13: THREE_TOOL as a task, its three answers one at a time (three replays). */
export const runThreeReplays = (url: string, options: Options) => drive((n, polls) => threeReplays(url, n, polls), options);
/** Row 13: THREE_TOOL as a call of three rounds. */
export const runThreeRounds = (url: string, options: Options) => drive((n) => threeRounds(url, n), options);
