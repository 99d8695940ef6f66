// notifications/tasks on subscriptions/listen (2026-07-28): a listen stream that names its caller's tasks in taskIds
// hears each change of them as a DetailedTask, made on this instance or (through a real Redis) on another; another
// caller's task, an unknown id and a request without the extension are refused or left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, createFetchHandler, type FrontMcpConfigInput, Tool, ToolContext, z } from 'parley-mcp';
import { sseReader, type SseEvent } from '../helpers/legacy';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { mcpRequest, meta, read } from '../helpers/requests';

const TASKS = 'io.modelcontextprotocol/tasks';
const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
const declaring = meta({ elicitation: {}, extensions: { [TASKS]: {} } });

/** Becomes a task, says where it is, asks under the key `ok`, and ends with what it heard. */
@Tool({ name: 'approve', inputSchema: {}, execution: { taskSupport: 'optional' } })
class Approve extends ToolContext {
  async execute() {
    await this.startTask();
    this.progress(1, 2, 'checking the ledger');
    const answer = await this.elicit('Approve?', z.object({ confirm: z.boolean() }), { key: 'ok' });
    return answer.content?.confirm ? 'approved' : 'refused';
  }
}

@App({ id: 'notify', tools: [Approve] })
class NotifyApp {}

const config = (extra: Partial<FrontMcpConfigInput> = {}): FrontMcpConfigInput => ({
  info: { name: 'task-notifications', version: '1.0.0' },
  apps: [NotifyApp],
  elicitation: { enabled: true },
  logger: { debug() {}, info() {}, warn() {}, error() {} },
  ...extra,
});

type Handler = (request: Request, options?: { auth?: { user: { sub: string } } }) => Promise<Response>;
const ada = { auth: { user: { sub: 'ada' } } };
const bob = { auth: { user: { sub: 'bob' } } };

async function createTask(handler: Handler, as = ada): Promise<string> {
  const { body } = await read(await handler(mcpRequest('tools/call', { name: 'approve', arguments: {}, _meta: declaring }), as));
  expect(body.result).toMatchObject({ resultType: 'task', status: 'working' });
  return body.result.taskId;
}

const taskCall = async (handler: Handler, method: string, params: Record<string, unknown>, as = ada) =>
  read(await handler(mcpRequest(method, { ...params, _meta: declaring }, { headers: { 'mcp-name': params.taskId as string } }), as));

/** Opens a listen stream and reads its acknowledgement; the request's id is the subscription's. */
async function listen(handler: Handler, notifications: Record<string, unknown>, as = ada) {
  const request = mcpRequest('subscriptions/listen', { notifications, _meta: declaring });
  const { id } = JSON.parse(await request.clone().text());
  const response = await handler(request, as);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const events = sseReader(response);
  const ack = (await events.next())!.data;
  return { id, ack, events };
}

/** Reads notifications/tasks until one has the status wanted (every one checked for its tag on the way). */
async function until(events: ReturnType<typeof sseReader>, id: number, status: string): Promise<any[]> {
  const seen: any[] = [];
  for (;;) {
    const event: SseEvent | undefined = await events.next();
    if (!event) throw new Error(`the stream ended before status ${status}: ${JSON.stringify(seen)}`);
    expect(event.data.method).toBe('notifications/tasks');
    expect(event.data.params._meta).toEqual({ [SUBSCRIPTION]: id });
    seen.push(event.data.params);
    if (event.data.params.status === status) return seen;
  }
}

describe('notifications/tasks on one instance', () => {
  const handler = createFetchHandler(config()) as Handler;

  it('acknowledges the caller’s task, then sends it as it is and at each change, ending with its result', async () => {
    const taskId = await createTask(handler);
    const { id, ack, events } = await listen(handler, { taskIds: [taskId, 'tsk_AAAAAAAAAAAAAAAAAAAAAAAA', '__proto__'] });
    expect(ack).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] }, _meta: { [SUBSCRIPTION]: id } },
    });
    const asked = (await until(events, id, 'input_required')).at(-1);
    expect(asked).toMatchObject({
      taskId,
      statusMessage: 'checking the ledger',
      inputRequests: { ok: { method: 'elicitation/create', params: { message: 'Approve?' } } },
    });
    expect(asked).not.toHaveProperty('resultType');
    const ack2 = await taskCall(handler, 'tasks/update', {
      taskId,
      inputResponses: { ok: { action: 'accept', content: { confirm: true } } },
    });
    expect(ack2.body.result).toMatchObject({ resultType: 'complete' });
    const done = (await until(events, id, 'completed')).at(-1);
    expect(done).toMatchObject({ taskId, result: { resultType: 'complete', content: [{ type: 'text', text: 'approved' }] } });
    // Each notification is what tasks/get shows at that moment.
    const got = await taskCall(handler, 'tasks/get', { taskId });
    const { resultType: _r, _meta: _m, ...detailed } = got.body.result;
    const { _meta: _t, ...sent } = done;
    expect(sent).toEqual(detailed);
    await events.cancel();
  });

  it('tells an ended task at once, and leaves out another caller’s task as it does an unknown one', async () => {
    const taskId = await createTask(handler);
    const theirs = await listen(handler, { taskIds: [taskId] }, bob);
    expect(theirs.ack.params.notifications).toEqual({ taskIds: [] });
    await theirs.events.cancel();
    await taskCall(handler, 'tasks/cancel', { taskId });
    const mine = await listen(handler, { taskIds: [taskId], toolsListChanged: true });
    expect(mine.ack.params.notifications).toEqual({ toolsListChanged: true, taskIds: [taskId] });
    expect((await until(mine.events, mine.id, 'cancelled')).at(-1)).toMatchObject({ taskId, statusMessage: 'Cancelled by the client' });
    await mine.events.cancel();
  });

  it('refuses taskIds without the tasks extension (-32021) and of the wrong shape (-32602), before any stream; ignores it without tasks', async () => {
    const undeclared = await read(
      await handler(mcpRequest('subscriptions/listen', { notifications: { taskIds: [] }, _meta: meta({ elicitation: {} }) }), ada),
    );
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    for (const taskIds of ['tsk_AAAAAAAAAAAAAAAAAAAAAAAA', [7], [null], { 0: 'x' }, Array.from({ length: 101 }, (_, i) => `t${i}`)]) {
      const bad = await read(await handler(mcpRequest('subscriptions/listen', { notifications: { taskIds }, _meta: declaring }), ada));
      expect({ status: bad.status, code: bad.body.error.code }).toEqual({ status: 400, code: -32602 });
    }
    // Where no tool runs as a task there is nothing to follow: taskIds is ignored, as any filter it does not know.
    const plain = createFetchHandler({ ...config(), apps: [], elicitation: { enabled: false } }) as Handler;
    const { ack, events } = await listen(plain, { taskIds: ['tsk_AAAAAAAAAAAAAAAAAAAAAAAA'] });
    expect(ack.params.notifications).toEqual({});
    await events.cancel();
  });
});

describe('notifications/tasks across two instances sharing a real Redis', () => {
  let redis: RunningRedis;
  let one: Handler;
  let two: Handler;
  beforeAll(async () => {
    redis = await startRedis();
    one = createFetchHandler(config({ redis: redis.url })) as Handler;
    two = createFetchHandler(config({ redis: redis.url })) as Handler;
  });
  afterAll(async () => {
    await Promise.all([one, two].map((h) => (h as unknown as { close(): Promise<void> }).close()));
    await redis?.stop();
  });

  it('sends a listener on one instance the changes the task’s work makes on the other', async () => {
    const taskId = await createTask(one);
    const { id, ack, events } = await listen(two, { taskIds: [taskId] });
    expect(ack.params.notifications).toEqual({ taskIds: [taskId] });
    expect((await until(events, id, 'input_required')).at(-1).inputRequests).toHaveProperty('ok');
    // Answered through the listener's instance; the work on the other takes it in and ends.
    await taskCall(two, 'tasks/update', { taskId, inputResponses: { ok: { action: 'accept', content: { confirm: false } } } });
    const done = (await until(events, id, 'completed')).at(-1);
    expect(done.result.content).toEqual([{ type: 'text', text: 'refused' }]);
    await events.cancel();
  });
});
