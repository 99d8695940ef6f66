// Parley's client following tasks on 2026-07-28 against a real Parley server (the conformance fixture's task tools) over
// HTTP: two questions at once answered by the one handler, a round before the task, a cancel from the caller's signal,
// a failed task, a tool error, thirty at once on one client, and the pace of polls counted in requests.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFetchHandler, McpWireError, type FrontMcpConfigInput } from 'parley-mcp';
import { McpClient, type ClientOptions, type ElicitAnswer, type TaskState } from 'parley-mcp/client';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config as fixture } from '../../examples/conformance/server';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
// The fixture asks for a poll a second; these tests poll every 20 ms so they run quickly.
const config: FrontMcpConfigInput = { ...fixture, logger: quiet, tasks: { pollIntervalMs: 20 } };

let server: RunningServer;
beforeAll(async () => {
  server = await serve(config, { port: 0 });
});
afterAll(() => server.close());

let open: McpClient[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.map((c) => c.close()));
  open = [];
});

/** A client with tasks on, whose every request is recorded (method, taskId, Mcp-Name) on its way to the server. */
function recordingClient(options: Partial<ClientOptions> = {}) {
  const wire: { method: string; taskId?: string; name: string | null }[] = [];
  const client = new McpClient({
    url: server.url,
    tasks: { minPollMs: 1 },
    fetch: async (request) => {
      const body = await request.clone().json();
      wire.push({ method: body.method, taskId: body.params?.taskId, name: request.headers.get('mcp-name') });
      return fetch(request);
    },
    ...options,
  });
  open.push(client);
  return { client, wire, count: (method: string) => wire.filter((w) => w.method === method).length };
}

describe('a task that asks', () => {
  it('answers two questions asked at once, each once, and returns the result', async () => {
    const { client, wire, count } = recordingClient();
    const asked: string[] = [];
    client.onElicitation((params) => {
      asked.push(params.message);
      return { action: 'accept', content: params.message === 'What is your name?' ? { name: 'Ada' } : { confirm: true } };
    });
    const result = await client.callTool({ name: 'multi_input' });
    expect(result.content).toEqual([{ type: 'text', text: 'name=Ada, confirm=true' }]);
    expect(asked.sort()).toEqual(['Go ahead?', 'What is your name?']);
    expect(count('tasks/update')).toBe(2);
    const taskId = wire.find((w) => w.method === 'tasks/get')!.taskId!;
    expect(taskId).toMatch(/^tsk_/);
    for (const sent of wire.filter((w) => w.method.startsWith('tasks/'))) expect(sent).toMatchObject({ taskId, name: taskId });
  });

  it('answers a round before the task and a question inside it with the same handler', async () => {
    const { client } = recordingClient();
    client.onElicitation((params) =>
      params.message.startsWith('Delete')
        ? { action: 'accept', content: { confirm: true } }
        : { action: 'accept', content: { name: 'Lin' } },
    );
    expect((await client.callTool({ name: 'test_tool_with_task' })).content).toEqual([
      { type: 'text', text: 'Hello, Lin! (from the task)' },
    ]);
    expect((await client.callTool({ name: 'confirm_delete', arguments: { filename: 'a.txt' } })).content).toEqual([
      { type: 'text', text: 'Deleted a.txt' },
    ]);
  });

  it('reports progress as statusMessage changes', async () => {
    const { client } = recordingClient();
    const reports: string[] = [];
    await client.callTool(
      { name: 'slow_compute', arguments: { seconds: 2, label: 'sum' } },
      { onTaskStatus: (t) => reports.push(`${t.status}: ${t.statusMessage}`) },
    );
    expect(reports).toContain('working: sum: 1 of 2 seconds');
    expect(reports.at(-1)).toMatch(/^completed/);
    expect(new Set(reports).size).toBe(reports.length); // one report a change, however many polls
  });
});

describe('how a task ends', () => {
  it('cancels the task when the caller aborts, and the server shows it cancelled', async () => {
    const { client, wire, count } = recordingClient();
    const call = new AbortController();
    const pending = client.callTool(
      { name: 'slow_compute', arguments: { seconds: 60 } },
      { signal: call.signal, onTaskStatus: (t) => t.statusMessage && call.abort(new Error('the user left')) },
    );
    await expect(pending).rejects.toThrow('the user left');
    expect(count('tasks/cancel')).toBe(1);
    const taskId = wire.find((w) => w.method === 'tasks/cancel')!.taskId!;
    const other = recordingClient().client;
    await vi.waitFor(async () => expect(((await other.request('tasks/get', { taskId })) as TaskState).status).toBe('cancelled'));
  });

  it('throws the JSON-RPC error of a failed task as McpWireError', async () => {
    const { client } = recordingClient();
    const error = await client.callTool({ name: 'protocol_error_job' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpWireError);
    expect(error).toMatchObject({ code: -32603, message: 'The job lost its connection to the warehouse' });
  });

  it('returns a tool error as a result with isError (completed on 2026-07-28)', async () => {
    const { client } = recordingClient();
    const result = await client.callTool({ name: 'failing_job' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('The job failed');
  });

  it('a tool that must be a task: refused with -32021 without tasks, run with them', async () => {
    const { client, count } = recordingClient({ tasks: false });
    await expect(client.callTool({ name: 'confirm_delete', arguments: { filename: 'a.txt' } })).rejects.toMatchObject({ code: -32021 });
    expect(count('tasks/get')).toBe(0);
    const declaring = recordingClient().client;
    expect((await declaring.callTool({ name: 'confirm_delete', arguments: { filename: 'a.txt' } })).content).toEqual([
      { type: 'text', text: 'Kept a.txt' }, // no handler: the client declines
    ]);
  });
});

describe('many tasks on one client', () => {
  it('follows 30 at once without a listener warning: each call has a signal of its own', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const { client } = recordingClient();
      const labels = Array.from({ length: 30 }, (_, i) => `job-${i}`);
      const results = await Promise.all(
        labels.map((label) => client.callTool({ name: 'slow_compute', arguments: { seconds: 0.05, label } })),
      );
      expect(results.map((result) => result.content)).toEqual(
        labels.map((label) => [{ type: 'text', text: expect.stringContaining(label) }]),
      );
      await new Promise((resolve) => setImmediate(resolve)); // a warning is emitted on the next tick
      expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('the pace of polls', () => {
  it('polls once per server pollIntervalMs while a question waits, counted in requests', { timeout: 60_000 }, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // In process (no socket), so fake time drives the client's waits and the tool, and nothing of HTTP.
    const handler = createFetchHandler({ ...config, tasks: { pollIntervalMs: 5000 } });
    let gets = 0;
    let inFlight = 0;
    let done = 0;
    const client = new McpClient({
      url: 'http://localhost/mcp',
      tasks: true,
      fetch: async (request) => {
        if (request.headers.get('mcp-method') === 'tasks/get') gets++;
        inFlight++;
        try {
          return await handler(request);
        } finally {
          inFlight--;
          done++;
        }
      },
    });
    open.push(client);
    /** Lets the server answer what was sent (its crypto and store run outside fake time), so the client sleeps again. */
    // Bounded by the real clock (Date is not faked), not by a count of turns, which a loaded machine can use up first.
    const settle = async (answered = 0) => {
      const until = Date.now() + 10_000;
      while ((inFlight > 0 || done < answered) && Date.now() < until) await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(0);
    };
    let answer: (a: ElicitAnswer) => void = () => {};
    client.onElicitation(() => new Promise<ElicitAnswer>((resolve) => (answer = resolve)));
    const pending = client.callTool({ name: 'confirm_delete', arguments: { filename: 'b.txt' } });
    await settle(1); // the tools/call that creates the task
    expect(gets).toBe(0);
    await vi.advanceTimersByTimeAsync(4999);
    await settle();
    expect(gets).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(gets).toBe(1);
    // The question is in front of the person: the client polls on, once every 5000 ms.
    for (let poll = 2; poll <= 5; poll++) {
      await vi.advanceTimersByTimeAsync(4999);
      await settle();
      expect(gets).toBe(poll - 1);
      await vi.advanceTimersByTimeAsync(1);
      await settle();
      expect(gets).toBe(poll);
    }
    answer({ action: 'accept', content: { confirm: false } });
    let result: unknown;
    void pending.then((r) => (result = r));
    for (const until = Date.now() + 30_000; !result && Date.now() < until; ) {
      await settle();
      await vi.advanceTimersByTimeAsync(5000);
    }
    expect(await pending).toMatchObject({ content: [{ type: 'text', text: 'Kept b.txt' }] });
  });
});
