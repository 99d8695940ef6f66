// 2025-11-25 tasks/* with bad input: a clear JSON-RPC error for every shape, never a crash or a hang.
import { describe, expect, it } from 'vitest';
import { App, createFetchHandler, type FrontMcpConfigInput, Tool, ToolContext } from 'parley-mcp';
import { legacyPost, openLegacySession, request } from '../helpers/legacy';

@Tool({ name: 'slow', inputSchema: {}, execution: { taskSupport: 'optional' } })
class Slow extends ToolContext {
  execute() {
    return 'done';
  }
}

@App({ id: 'input', tools: [Slow] })
class InputApp {}

const config: FrontMcpConfigInput = {
  info: { name: 'legacy-task-input', version: '1.0.0' },
  apps: [InputApp],
  elicitation: { enabled: true },
  logger: { debug() {}, info() {}, warn() {}, error() {} },
};

/** The JSON-RPC answer, whether it came as JSON or as the last event of a stream. */
async function answerOf(response: Response): Promise<any> {
  const text = await response.text();
  if (text.startsWith('{')) return JSON.parse(text);
  const data = text.split('\n').filter((line) => line.startsWith('data: ') && line.length > 6);
  return JSON.parse(data.at(-1)!.slice(6));
}

describe('2025-11-25 tasks/* with bad input', () => {
  const handler = createFetchHandler(config);
  const ask = async (session: string, method: string, params: Record<string, unknown>) => {
    const response = await handler(legacyPost(request(method, params), session));
    expect(response.status).toBe(200);
    return answerOf(response);
  };

  it.each([
    ['tasks/get', {}],
    ['tasks/get', { taskId: 7 }],
    ['tasks/get', { taskId: '__proto__' }],
    ['tasks/get', { taskId: 'tsk_AAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['tasks/cancel', { taskId: 'constructor' }],
    ['tasks/result', {}],
    ['tasks/result', { taskId: { length: 1 } }],
    ['tasks/result', { taskId: 'tsk_AAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['tasks/list', { cursor: 'next' }],
  ])('%s %j is -32602', async (method, params) => {
    const session = await openLegacySession(handler);
    expect((await ask(session, method, params)).error).toMatchObject({ code: -32602 });
  });

  it('answers tasks/result for a task another session created as unknown, and its own with the result', async () => {
    const [mine, theirs] = [await openLegacySession(handler), await openLegacySession(handler)];
    const created = await ask(mine, 'tools/call', { name: 'slow', arguments: {}, task: { ttl: 1000 } });
    const { taskId } = created.result.task;
    expect((await ask(theirs, 'tasks/result', { taskId })).error).toMatchObject({ code: -32602 });
    expect((await ask(mine, 'tasks/result', { taskId })).result.content).toEqual([{ type: 'text', text: 'done' }]);
  });
});
