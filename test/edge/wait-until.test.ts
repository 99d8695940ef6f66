// A Worker's ctx.waitUntil gets the work of an older client's call that outlives its response (the tool still waits
// for an answer after the SSE response went out), so workerd keeps it alive if the client leaves; and a task's run,
// which createWorker tells Cloudflare's 30 s limit (in fake time here: workerd run locally never cuts the work).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App, createFetchHandler, Tool, ToolContext } from '../../src';
import { createWorker } from 'parley-mcp/cloudflare';
import { config } from '../../examples/help-desk/server';
import { mcpRequest, meta, rawPost, read } from '../helpers/requests';

@Tool({ name: 'wait_for_signal', inputSchema: {}, execution: { taskSupport: 'required' } })
class WaitForSignal extends ToolContext {
  async execute() {
    await this.startTask();
    const signal = this.signal;
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    return 'stopped';
  }
}

@App({ id: 'jobs', tools: [WaitForSignal] })
class Jobs {}

afterEach(() => {
  vi.useRealTimers();
});

describe('ctx.waitUntil', () => {
  it("is handed an older client's running call, which settles once the answer arrived", async () => {
    const handler = createFetchHandler(config);
    const kept: Promise<unknown>[] = [];
    const ctx = { waitUntil: (work: Promise<unknown>) => void kept.push(work) };
    const send = (body: unknown, headers: Record<string, string> = {}) =>
      handler.fetch(rawPost(JSON.stringify(body), { accept: 'application/json, text/event-stream', ...headers }), {}, ctx);
    const init = await send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } },
    });
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    const call = await send(
      { jsonrpc: '2.0', id: 'c', method: 'tools/call', params: { name: 'close_ticket', arguments: { id: 'T-2' } } },
      session,
    );
    expect(kept).toHaveLength(1);
    const reader = call.body!.getReader();
    let text = '';
    while (!text.includes('elicitation/create')) text += new TextDecoder().decode((await reader.read()).value);
    const questionId = /"id":"([^"]+)","method":"elicitation\/create"/.exec(text)![1];
    let settled = false;
    void kept[0]!.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false); // the tool still waits
    await send({ jsonrpc: '2.0', id: questionId, result: { action: 'accept', content: { confirm: true } } }, session);
    await kept[0];
    expect(settled).toBe(true);
  });

  it("is handed a task's run by createWorker, which hands the stretch over a second before Cloudflare's 30 s", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const worker = createWorker({ info: { name: 'jobs', version: '1.0.0' }, apps: [Jobs], elicitation: { enabled: true } });
    const kept: Promise<unknown>[] = [];
    const ctx = { waitUntil: (work: Promise<unknown>) => void kept.push(work) };
    const declaring = meta({ elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } });
    const created = await read(
      await worker.fetch(mcpRequest('tools/call', { name: 'wait_for_signal', arguments: {}, _meta: declaring }), {}, ctx),
    );
    const { taskId } = created.body.result;
    expect(kept).toHaveLength(1);
    const status = async () => {
      const got = mcpRequest('tasks/get', { taskId, _meta: declaring }, { headers: { 'mcp-name': taskId } });
      return (await read(await worker.fetch(got, {}, ctx))).body.result;
    };
    await vi.advanceTimersByTimeAsync(28_999);
    expect((await status()).status).toBe('working');
    await vi.advanceTimersByTimeAsync(1);
    await kept[0]; // handed over: the tool heard its signal, and its run is over without ending the task
    // The next poll resumes it by replay, under that poll's ctx.waitUntil.
    expect((await status()).status).toBe('working');
    expect(kept.length).toBeGreaterThan(2);
    // Each stretch of this tool runs to the limit: cut a third time (tasks.attempts), the task ends failed, saying so.
    let task = await status();
    let polls = 0;
    for (; polls < 10 && task.status === 'working'; polls++) {
      await vi.advanceTimersByTimeAsync(29_000);
      task = await status();
    }
    expect(task.status).toBe('failed');
    expect(polls).toBeGreaterThanOrEqual(2); // resumed again before that
    expect(task.error.message).toContain("The task's work was cut 3 times");
  });
});
