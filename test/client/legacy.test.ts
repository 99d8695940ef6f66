// Parley's client on 2025-11-25 against the official v1 SDK server: initialize, sessions, server-initiated elicitation/create.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { McpClient, type ClientOptions, type ElicitAnswer } from 'parley-mcp/client';
import { v1Handler } from '../helpers/v1-server';

const CONFIRM = { type: 'object' as const, properties: { confirm: { type: 'boolean' as const, title: 'Confirm' } }, required: ['confirm'] };
const seen = { elicitTimeouts: 0 };

const handler = v1Handler((server) => {
  // Asks on the standalone GET stream: no related request, as client-howto.md's server does.
  server.registerTool('delete_ticket', { inputSchema: { id: z.string() } }, async ({ id }) => {
    try {
      const answer = await server.server.elicitInput({ message: `Delete ticket ${id}?`, requestedSchema: CONFIRM });
      return { content: [{ type: 'text', text: `${answer.action}:${JSON.stringify(answer.content ?? null)}` }] };
    } catch (error) {
      return { content: [{ type: 'text', text: `not deleted: ${(error as Error).message}` }], isError: true };
    }
  });
  // Asks on the call's own POST stream (or, with onGetStream, on the GET stream), and gives up after 300 ms.
  server.registerTool('quick_question', { inputSchema: { onGetStream: z.boolean().optional() } }, async ({ onGetStream }, extra) => {
    try {
      const related = onGetStream ? {} : { relatedRequestId: extra.requestId };
      const answer = await server.server.elicitInput({ message: 'Quick?', requestedSchema: CONFIRM }, { ...related, timeout: 300 });
      return { content: [{ type: 'text', text: answer.action }] };
    } catch {
      seen.elicitTimeouts++;
      return { content: [{ type: 'text', text: 'no answer before the timeout' }], isError: true };
    }
  });
  server.registerTool('with_progress', { inputSchema: {} }, async (_args, extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined)
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2 } });
    return { content: [{ type: 'text', text: 'done' }] };
  });
});
afterAll(() => handler.close());

let open: McpClient[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
});
const connect = (options: Partial<ClientOptions> = {}) => {
  const client = new McpClient({ url: 'http://localhost/mcp', fetch: (r) => handler(r), protocolVersion: '2025-11-25', ...options });
  open.push(client);
  return client;
};
const text = (r: { content: Array<{ text?: string }> }) => r.content.map((c) => c.text).join('');

describe('the legacy handshake', () => {
  it('initializes, keeps the session, and lists tools', async () => {
    const client = connect();
    expect(await client.protocolVersion()).toBe('2025-11-25');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['delete_ticket', 'quick_question', 'with_progress']);
  });

  it("with 'auto', falls back to initialize when server/discover is not understood", async () => {
    const client = connect({ protocolVersion: 'auto' });
    expect(await client.protocolVersion()).toBe('2025-11-25');
  });
});

describe('server-initiated elicitation/create', () => {
  it('answers a question sent on the GET stream with the registered handler', async () => {
    const client = connect();
    const messages: string[] = [];
    client.onElicitation((params) => (messages.push(params.message), { action: 'accept', content: { confirm: true } }));
    const result = await client.callTool({ name: 'delete_ticket', arguments: { id: 't3' } });
    expect(text(result)).toBe('accept:{"confirm":true}');
    expect(messages).toEqual(['Delete ticket t3?']);
  });

  it('answers a question sent on the call’s POST stream', async () => {
    const client = connect();
    client.onElicitation(() => ({ action: 'decline' }));
    expect(text(await client.callTool({ name: 'quick_question' }))).toBe('decline');
  });

  it('declines without a handler and cancels when the handler throws', async () => {
    const client = connect();
    expect(text(await client.callTool({ name: 'delete_ticket', arguments: { id: 't1' } }))).toBe('decline:null');
    client.onElicitation(() => {
      throw new Error('dialog failed');
    });
    expect(text(await client.callTool({ name: 'delete_ticket', arguments: { id: 't1' } }))).toBe('cancel:null');
  });

  it('a client without the capability is never asked', async () => {
    const client = connect({ elicitation: false });
    let asked = false;
    client.onElicitation(() => ((asked = true), { action: 'accept', content: { confirm: true } }));
    const result = await client.callTool({ name: 'delete_ticket', arguments: { id: 't1' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/not deleted: .*elicitation/i);
    expect(asked).toBe(false);
  });

  // On the POST stream the call's response also ends the wait; on the GET stream only notifications/cancelled says so.
  for (const onGetStream of [false, true]) {
    it(`aborts the handler's signal when the server stops waiting (${onGetStream ? 'GET' : 'POST'} stream, request id 0), and drops the late answer`, async () => {
      const client = connect();
      let signal: AbortSignal | undefined;
      let late: (answer: ElicitAnswer) => void = () => {};
      client.onElicitation((_params, context) => {
        signal = context.signal;
        return new Promise<ElicitAnswer>((resolve) => (late = resolve));
      });
      const before = seen.elicitTimeouts;
      const result = await client.callTool({ name: 'quick_question', arguments: { onGetStream } });
      expect(text(result)).toBe('no answer before the timeout');
      expect(seen.elicitTimeouts).toBe(before + 1);
      await expect.poll(() => signal?.aborted).toBe(true);
      late({ action: 'accept', content: { confirm: true } });
      // The session still works after the dropped answer.
      client.onElicitation(() => ({ action: 'accept', content: { confirm: false } }));
      expect(text(await client.callTool({ name: 'quick_question', arguments: { onGetStream } }))).toBe('accept');
    });
  }
});

describe('SSE responses', () => {
  it('reads the response from an SSE stream and passes notifications on', async () => {
    const notes: unknown[] = [];
    const client = connect({ onNotification: (n) => notes.push(n) });
    const result = await client.request('tools/call', { name: 'with_progress', arguments: {}, _meta: { progressToken: 'p1' } });
    expect(text(result as { content: [] })).toBe('done');
    expect(notes).toEqual([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 1, total: 2 } }]);
  });
});
