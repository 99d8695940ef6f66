// Parley's client on 2025-11-25 against Parley's own legacy era: sessions, questions on the call's stream, raw requests, cancellation.
import { afterEach, describe, expect, it } from 'vitest';
import { App, createFetchHandler, FrontMcp, Tool, ToolContext, z } from 'parley-mcp';
import { McpClient, type ClientOptions, type ElicitAnswer } from 'parley-mcp/client';
import { expect as mcpExpect, test } from 'parley-mcp/testing';

const runs = { slow: 0, cancelled: 0 };

@Tool({ name: 'slow_confirm', description: 'Asks, and waits 200 ms for the answer', inputSchema: {} })
class SlowConfirm extends ToolContext {
  async execute() {
    runs.slow++;
    const answer = await this.elicit('Still there?', z.object({ confirm: z.boolean() }), { ttl: 200 });
    return { answered: answer.status };
  }
}

@Tool({ name: 'wait_for_cancel', description: 'Runs until the call is cancelled', inputSchema: {} })
class WaitForCancel extends ToolContext {
  async execute() {
    await new Promise<void>((resolve) => this.signal.addEventListener('abort', () => resolve(), { once: true }));
    runs.cancelled++;
    return 'cancelled';
  }
}

@App({ id: 'legacy-probe', tools: [SlowConfirm, WaitForCancel] })
class Probe {}

@FrontMcp({ info: { name: 'legacy-probe', version: '1.0.0' }, apps: [Probe], elicitation: { enabled: true } })
class Server {}

const handler = createFetchHandler(Server);
let client: McpClient;
const connect = (options: Partial<ClientOptions> = {}) =>
  (client = new McpClient({ url: 'http://localhost/mcp', fetch: (r) => handler(r), protocolVersion: '2025-11-25', ...options }));
afterEach(() => client?.close());

describe('against Parley before 2026-07-28', () => {
  it('answers a question on the call stream, in time', async () => {
    connect().onElicitation(() => ({ action: 'accept', content: { confirm: true } }));
    expect((await client.callTool({ name: 'slow_confirm' })).structuredContent).toEqual({ answered: 'accept' });
  });

  it('aborts the handler when the server gives up waiting (ttl), and the call reports the timeout', async () => {
    let signal: AbortSignal | undefined;
    connect().onElicitation((_p, context) => ((signal = context.signal), new Promise<ElicitAnswer>(() => {})));
    const result = await client.callTool({ name: 'slow_confirm' });
    expect(result).toMatchObject({ isError: true, _meta: { code: 'ELICITATION_TIMEOUT' } });
    expect(signal?.aborted).toBe(true);
  });

  it('cancels a call on the server when the caller aborts it', async () => {
    connect();
    const call = new AbortController();
    const before = runs.cancelled;
    const pending = client.callTool({ name: 'wait_for_cancel' }, { signal: call.signal });
    setTimeout(() => call.abort(new Error('no longer needed')), 50);
    await expect(pending).rejects.toThrow();
    await expect.poll(() => runs.cancelled).toBe(before + 1);
    // The session goes on.
    expect((await client.listTools()).tools).toHaveLength(2);
  });

  it('sends a raw request within the session, as written', async () => {
    connect();
    const response = await client.send({ jsonrpc: '2.0', id: 'raw-1', method: 'tools/call', params: { name: 'missing', arguments: {} } });
    expect(response).toMatchObject({ id: 'raw-1', error: { code: -32602 } });
  });
});

describe('the fixture on an older revision', () => {
  test.override({ mcpOptions: { server: Server, protocolVersion: '2025-06-18' } });

  test('runs the handshake and answers on the stream', async ({ mcp }) => {
    expect(await mcp.client.protocolVersion()).toBe('2025-06-18');
    mcp.onElicitation(() => ({ action: 'decline' }));
    mcpExpect((await mcp.tools.call('slow_confirm')).json()).toEqual({ answered: 'decline' });
  });
});
