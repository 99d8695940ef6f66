// One cycle of a scenario straight into a fetch handler, no HTTP: for bench/in-process.ts and the driver that
// bench/callgrind-in-process.ts runs under valgrind (bench/lib/cycles.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { createFetchHandler } from 'parley-mcp';
import { mcpPostRequest } from '../../src/adapters/node-request';
import { PlainResponse } from '../../src/adapters/node-response';
import * as scenarios from '../scenarios';
import { SIMPLE_ARGS, SIMPLE_TEXT, TASK_TOOL, THREE_TOOL, threeDone, threeQuestion } from '../servers/fixture';
import { isTextResult, modernRequest, resultOf, type WireRequest } from './wire';

/** The scenarios of scenarios.ts, taskCycle (a no-input task created, then tasks/get until it completed) and
 * taskThreeReplays (row 13's three-question task answered one question at a time); the task scenarios and roundThree
 * need the task tools (BENCH_TASKS set). */
export type ScenarioName = keyof typeof scenarios | 'taskCycle' | 'taskThreeReplays';
type Handler = ReturnType<typeof createFetchHandler>;

/**
 * How the cycles hand a request over: `fetch`, a Fetch Request (undici's, whose Headers every header read goes
 * through: what the gate counts), or `node`, the light request parley-mcp/node builds for an MCP POST from Node's
 * parsed headers (src/adapters/node-request.ts), for the gap between the two (`<scenario>@node`).
 */
export const requestKind = { via: 'fetch' as 'fetch' | 'node' };

// What parley-mcp/node's light request reads of Node's response: its signal only (built on first read).
const NO_RESPONSE = { once: () => NO_RESPONSE, writableFinished: true } as unknown as ServerResponse;

const freshRequest = (wire: WireRequest) => {
  const headers = { ...wire.headers, host: '127.0.0.1:3000' };
  const url = `http://127.0.0.1:3000${wire.path}`;
  if (requestKind.via === 'node') return mcpPostRequest({ headers } as unknown as IncomingMessage, NO_RESPONSE, url);
  return new Request(url, { method: 'POST', headers });
};

// The body is handed over as parley-mcp/node reads it from the socket, so one Request serves every call of a step.
const requests = new Map<string, Request>();
const requestFor = (path: string, headers: Record<string, string>) => {
  const key = JSON.stringify([path, headers]);
  let request = requests.get(key);
  if (!request) requests.set(key, (request = freshRequest({ method: 'POST', path, headers, body: '' })));
  return request;
};

async function send(handler: Handler, wire: WireRequest, request = requestFor(wire.path, wire.headers)): Promise<string> {
  const response = await handler(request, { readBody: () => Promise.resolve(wire.body) });
  // parley-mcp/node writes a plain response's text as it is: read it so, not through a Fetch Response built for the check.
  return response instanceof PlainResponse && response.untouched ? response.plainText! : await response.text();
}

export async function cycle(handler: Handler, name: ScenarioName): Promise<void> {
  if (name === 'taskCycle') return taskCycle(handler);
  if (name === 'taskThreeReplays') return taskThreeReplays(handler);
  const context: Record<string, unknown> = {};
  for (const step of scenarios[name]().steps) {
    const wire = typeof step.request === 'function' ? step.request(context) : step.request;
    if (!step.check(await send(handler, wire), context)) throw new Error(`${name}: an unexpected answer`);
  }
}

/** tasks/get a cycle may send before it fails: the task ends within a few turns of the event loop. */
const MAX_POLLS = 50;

/** A no-input task: tools/call, then tasks/get after each turn of the event loop until completed with the tool's text. */
async function taskCycle(handler: Handler): Promise<void> {
  // A task's run keeps its call's signal (TaskCall.inbox): a Request kept for every cycle would gather a listener per task.
  const call = modernRequest('tools/call', { name: TASK_TOOL, arguments: SIMPLE_ARGS }, '/mcp', true);
  const created = resultOf(await send(handler, call, freshRequest(call)));
  const taskId = created?.resultType === 'task' ? created.taskId : undefined;
  if (typeof taskId !== 'string') throw new Error(`taskCycle: created ${JSON.stringify(created)}`);
  // Each task's requests name it (Mcp-Name), so they are built per task and not kept.
  const wire = modernRequest('tasks/get', { taskId }, '/mcp', true);
  const request = freshRequest(wire);
  for (let polls = 0; polls < MAX_POLLS; polls++) {
    await new Promise((resolve) => setImmediate(resolve));
    const task = resultOf(await send(handler, wire, request));
    if (task?.status === 'completed' && isTextResult(task.result, SIMPLE_TEXT)) return void taskPolls.n++;
    if (task?.status !== 'working') throw new Error(`taskCycle: ${JSON.stringify(task).slice(0, 300)}`);
    taskPolls.n++;
  }
  throw new Error(`taskCycle: still working after ${MAX_POLLS} tasks/get`);
}

/** tasks/get sent by taskCycle so far: the driver prints it, so that a count moved by more polls shows as such. */
export const taskPolls = { n: 0 };

let threes = 0;

/** tasks/get after each timer turn until `done`; throws on an end it does not expect. A question parks its work in a
 * timer of 0 ms (TaskWork's turn, src/engine/tasks/task-work.ts): waiting on a timer too, scheduled after it, the poll
 * count depends on the order of the work, not on the clock (an immediate would poll once per turn until it fires). */
async function pollTask(handler: Handler, taskId: string, done: (task: Record<string, any>) => boolean): Promise<Record<string, any>> {
  const wire = modernRequest('tasks/get', { taskId }, '/mcp', true);
  const request = freshRequest(wire);
  for (let polls = 0; polls < MAX_POLLS; polls++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    taskPolls.n++;
    const task = resultOf(await send(handler, wire, request));
    if (task && done(task)) return task;
    if (task?.status !== 'working' && task?.status !== 'input_required')
      throw new Error(`taskThreeReplays: ${JSON.stringify(task).slice(0, 300)}`);
  }
  throw new Error(`taskThreeReplays: not there after ${MAX_POLLS} tasks/get`);
}

/** Row 13's task in-process: THREE_TOOL as a task, each of its three checks polled for and answered with tasks/update
 * (each answer replays execute() from the top), then polled until completed. Counted with its tasks/get. */
async function taskThreeReplays(handler: Handler): Promise<void> {
  const id = `T3-${++threes}`;
  const call = modernRequest('tools/call', { name: THREE_TOOL, arguments: { id } }, '/mcp', true);
  const created = resultOf(await send(handler, call, freshRequest(call)));
  const taskId = created?.resultType === 'task' ? created.taskId : undefined;
  if (typeof taskId !== 'string') throw new Error(`taskThreeReplays: created ${JSON.stringify(created)}`);
  for (let check = 1; check <= 3; check++) {
    const asked = await pollTask(handler, taskId, (task) => {
      const requests = task.status === 'input_required' ? Object.entries(task.inputRequests ?? {}) : [];
      return requests.length === 1 && (requests[0]![1] as any)?.params?.message === threeQuestion(id, check);
    });
    const key = Object.keys(asked.inputRequests)[0]!;
    const update = modernRequest(
      'tasks/update',
      { taskId, inputResponses: { [key]: { action: 'accept', content: { confirm: true } } } },
      '/mcp',
      true,
    );
    if (resultOf(await send(handler, update, freshRequest(update)))?.resultType !== 'complete')
      throw new Error('taskThreeReplays: update refused');
  }
  await pollTask(handler, taskId, (task) => task.status === 'completed' && isTextResult(task.result, threeDone(id)));
}
