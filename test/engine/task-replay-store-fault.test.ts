// A replay that fails on a store error does not lose the task: the claim goes back, and the client's next tasks/get
// continues the work, whose step does not run again. Everything is real (the server, its memory store, the requests)
// but one thin wrapper around that store, which fails the next subscribe once when told to: the only non-real part.
import { describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, z } from 'parley-mcp';
import { buildServer } from '../../src/app/build-server';
import { handlePost } from '../../src/http/endpoint';
import { createTaskRuntime } from '../../src/engine/tasks/task-runtime';
import { TASK_DEFAULTS } from '../../src/engine/tasks/task-store';
import type { StoreBackend } from '../../src/stores';
import { mcpRequest, meta, read } from '../helpers/requests';

const TASKS = 'io.modelcontextprotocol/tasks';
let opened = 0;

@Tool({ name: 'open_and_ask', inputSchema: { title: z.string() }, execution: { taskSupport: 'required' } })
class OpenAndAsk extends ToolContext {
  async execute({ title }: { title: string }) {
    await this.startTask();
    const ticket = await this.step('open', () => `T-${++opened}`);
    const answer = await this.elicit(`Team for ${title}?`, z.object({ team: z.string() }));
    return `${ticket} to ${String(answer.content?.team)}`;
  }
}

@App({ id: 'fault', tools: [OpenAndAsk] })
class FaultApp {}

/** The real backend, but its next subscribe throws once when `failNextSubscribe` is set. */
function failingOnce(real: StoreBackend): StoreBackend & { failNextSubscribe: boolean } {
  const wrapper = Object.create(real) as StoreBackend & { failNextSubscribe: boolean };
  wrapper.failNextSubscribe = false;
  wrapper.subscribe = (channel, onMessage) => {
    if (!wrapper.failNextSubscribe) return real.subscribe(channel, onMessage);
    wrapper.failNextSubscribe = false;
    return Promise.reject(new Error('the store dropped the connection'));
  };
  return wrapper;
}

describe('a replay that fails on a store error', () => {
  it('gives its claim back: the next tasks/get continues the task, and its step ran once', async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
    const server = await buildServer({ info: { name: 'fault', version: '1' }, apps: [FaultApp], elicitation: { enabled: true }, logger });
    const home = server.elicitationStore!;
    const backend = failingOnce(home.backend);
    server.tasks = createTaskRuntime({ backend, keyPrefix: home.keyPrefix, secret: home.secret }, TASK_DEFAULTS);
    const rpc = async (method: string, params: Record<string, unknown>) => {
      const taskId = params.taskId as string | undefined;
      const request = mcpRequest(
        method,
        { _meta: meta({ elicitation: {}, extensions: { [TASKS]: {} } }), ...params },
        {
          headers: taskId ? { 'mcp-name': taskId } : {},
        },
      );
      return (await read(await handlePost(server, request))).body.result;
    };
    const until = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 300; i++) if (await check()) return true;
      return false;
    };
    const pause = () => new Promise((r) => setTimeout(r, 10));

    const { taskId } = await rpc('tools/call', { name: 'open_and_ask', arguments: { title: 'printer' } });
    expect(await until(async () => (await rpc('tasks/get', { taskId })).status === 'input_required' || (await pause(), false))).toBe(true);
    backend.failNextSubscribe = true;
    const answer = { 'elicitation-1': { action: 'accept', content: { team: 'billing' } } };
    expect(await rpc('tasks/update', { taskId, inputResponses: answer })).toMatchObject({ resultType: 'complete' });
    // The replay this answer claimed could not listen on the task's channel: it failed, and said so.
    expect(
      await until(async () => (!backend.failNextSubscribe && warnings.some((w) => w.includes('replay failed'))) || (await pause(), false)),
    ).toBe(true);
    // The client polls on: its look finds the replay due and continues the task, well within the work's lease.
    let task: Record<string, any> = {};
    expect(await until(async () => (task = await rpc('tasks/get', { taskId })).status === 'completed' || (await pause(), false))).toBe(
      true,
    );
    expect(task.result.content).toEqual([{ type: 'text', text: 'T-1 to billing' }]);
    expect(opened).toBe(1);
  });
});
