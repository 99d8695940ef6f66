// The checks in front of tasks on 2026-07-28, on raw requests through the handler: Mcp-Name against taskId, the
// methods the era removed, the per-caller cap, the round before the task, and the startup refusals.
import { describe, expect, it, vi } from 'vitest';
import { App, createDirect, createFetchHandler, type FrontMcpConfigInput, Tool, ToolContext } from 'parley-mcp';
import { mcpRequest, meta, read } from '../helpers/requests';

const TASKS = 'io.modelcontextprotocol/tasks';
const declaring = meta({ elicitation: {}, extensions: { [TASKS]: {} } });

@Tool({ name: 'hold', inputSchema: {}, execution: { taskSupport: 'required' } })
class Hold extends ToolContext {
  async execute() {
    const name = await this.elicit('Who asks?', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
    await this.startTask();
    const signal = this.signal;
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    return `held for ${String(name.content?.name)}`;
  }
}

/** Starts a task without waiting for it, and answers at once. */
@Tool({ name: 'hasty', inputSchema: {}, execution: { taskSupport: 'optional' } })
class Hasty extends ToolContext {
  execute() {
    void this.startTask();
    return 'answered at once';
  }
}

@App({ id: 'hold', tools: [Hold, Hasty] })
class HoldApp {}

const config = (extra: Partial<FrontMcpConfigInput> = {}): FrontMcpConfigInput => ({
  info: { name: 'task-checks', version: '1.0.0' },
  apps: [HoldApp],
  elicitation: { enabled: true },
  logger: { debug() {}, info() {}, warn() {}, error() {} },
  ...extra,
});

const handler = createFetchHandler(config({ tasks: { maxPerCaller: 2 } }));
/** Round one asks the name, round two (the retry with the answer) becomes a task: its id. */
async function createTask(on = handler): Promise<{ status: number; body: any }> {
  const call = async (params: Record<string, unknown>) =>
    read(await on(mcpRequest('tools/call', { name: 'hold', arguments: {}, _meta: declaring, ...params })));
  const first = await call({});
  expect(first.body.result).toMatchObject({ resultType: 'input_required', inputRequests: { 'elicitation-1': expect.any(Object) } });
  expect(first.body.result).not.toHaveProperty('taskId');
  const { requestState } = first.body.result;
  return call({ requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } } });
}

describe('tasks behind their checks', () => {
  it('asks a round before the task, then answers with the task, without requestState or inputRequests', async () => {
    const { body } = await createTask();
    expect(body.result).toMatchObject({ resultType: 'task', status: 'working' });
    expect(body.result).not.toHaveProperty('requestState');
    expect(body.result).not.toHaveProperty('inputRequests');
    await read(
      await handler(
        mcpRequest('tasks/cancel', { taskId: body.result.taskId, _meta: declaring }, { headers: { 'mcp-name': body.result.taskId } }),
      ),
    );
  });

  it('checks Mcp-Name against taskId on tasks/get, update and cancel (-32020, 400), never on tasks/result or tasks/list', async () => {
    const taskId = 'tsk_AAAAAAAAAAAAAAAAAAAAAAAA';
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      for (const name of [null, 'tsk_BBBBBBBBBBBBBBBBBBBBBBBB']) {
        const { status, body } = await read(
          await handler(mcpRequest(method, { taskId, inputResponses: {}, _meta: declaring }, { headers: { 'mcp-name': name } })),
        );
        expect({ status, code: body.error.code }).toEqual({ status: 400, code: -32020 });
      }
      const right = await read(
        await handler(mcpRequest(method, { taskId, inputResponses: {}, _meta: declaring }, { headers: { 'mcp-name': taskId } })),
      );
      expect(right.body.error.code).toBe(-32602);
    }
    for (const method of ['tasks/result', 'tasks/list']) {
      const { body } = await read(await handler(mcpRequest(method, { taskId, _meta: declaring })));
      expect(body.error.code).toBe(-32601);
    }
  });

  it("refuses a caller's task past tasks.maxPerCaller with 429 and Retry-After, and counts ended tasks out", async () => {
    const made = [await createTask(), await createTask()];
    const over = await createTask();
    expect(over.status).toBe(429);
    expect(over.body.error.data).toMatchObject({ limit: 'tasks.maxPerCaller', max: 2 });
    const taskId = made[0]!.body.result.taskId;
    await read(await handler(mcpRequest('tasks/cancel', { taskId, _meta: declaring }, { headers: { 'mcp-name': taskId } })));
    expect((await createTask()).body.result).toMatchObject({ resultType: 'task' });
  });

  it('ends at once the task of a run that returned without awaiting startTask(): it holds no place under the cap', async () => {
    const one = createFetchHandler(config({ tasks: { maxPerCaller: 1 } }));
    const hasty = await read(await one(mcpRequest('tools/call', { name: 'hasty', arguments: {}, _meta: declaring })));
    expect(hasty.body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'answered at once' }] });
    await vi.waitFor(async () => expect((await createTask(one)).body.result).toMatchObject({ resultType: 'task' }), { timeout: 3000 });
  });

  it('refuses a required task tool with -32601 where no tasks are served (in-process, older clients), before it runs', async () => {
    const direct = await createDirect(config());
    await expect(direct.callTool('hold', {})).rejects.toMatchObject({
      code: -32601,
      message: 'Tool "hold" runs only as a task: call it with params.task (2025-11-25) or on 2026-07-28',
    });
  });

  it('refuses to start a task tool without the store tasks are kept in, naming the tool and the setting', async () => {
    await expect(createDirect(config({ elicitation: { enabled: false } }))).rejects.toThrow(
      'Tool "hold" may run as a task (execution.taskSupport), and tasks are kept in the elicitation store: set elicitation: { enabled: true }',
    );
  });
});
