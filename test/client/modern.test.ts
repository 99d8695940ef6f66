// Parley's client on 2026-07-28 against the help-desk server in-process: rounds, retries, capabilities, defaults and limits.
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHandler, McpWireError } from 'parley-mcp';
import { McpClient, McpClientError, type ElicitAnswer, type ElicitRequestParams } from 'parley-mcp/client';
import { config } from '../../examples/help-desk/server';

const handler = createFetchHandler(config);
let open: McpClient[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
});

/** A client whose every HTTP exchange is recorded: the request body and headers, and the response body. */
function recordingClient(options: Partial<ConstructorParameters<typeof McpClient>[0]> = {}) {
  const wire: { headers: Headers; body: any; response: any }[] = [];
  const client = new McpClient({
    url: 'http://localhost/mcp',
    fetch: async (request) => {
      const body = JSON.parse(await request.clone().text());
      const response = await handler(request);
      wire.push({ headers: request.headers, body, response: await response.clone().json() });
      return response;
    },
    ...options,
  });
  open.push(client);
  return { client, wire };
}

describe('input_required rounds', () => {
  it('retries with a new id, the answer under its key and the exact requestState', async () => {
    const { client, wire } = recordingClient();
    const asked: ElicitRequestParams[] = [];
    client.onElicitation((params) => {
      asked.push(params);
      return { action: 'accept', content: { confirm: true, note: 'done' } };
    });
    const result = await client.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } });
    expect(result.structuredContent).toEqual({ closed: true, id: 'T-1', note: 'done' });
    expect(asked.map((p) => p.message)).toEqual(['Close ticket T-1? The customer will be notified.']);
    expect(wire).toHaveLength(2);
    const [first, retry] = wire as [(typeof wire)[0], (typeof wire)[0]];
    expect(retry.body.id).not.toBe(first.body.id);
    expect(retry.body.params.requestState).toBe(first.response.result.requestState);
    expect(retry.body.params.inputResponses).toEqual({ 'elicitation-1': { action: 'accept', content: { confirm: true, note: 'done' } } });
    expect(retry.body.params.arguments).toEqual({ id: 'T-1' });
    expect(first.body.params).not.toHaveProperty('requestState');
  });

  it('sends the _meta envelope and the headers that mirror the body', async () => {
    const { client, wire } = recordingClient({ clientInfo: { name: 'desk-agent', version: '2.0.0' } });
    await client.listTools();
    await client.callTool({ name: 'list_tickets' });
    const [list, call] = wire as [(typeof wire)[0], (typeof wire)[0]];
    expect(list.body.params._meta).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'desk-agent', version: '2.0.0' },
    });
    expect(list.headers.get('mcp-method')).toBe('tools/list');
    expect(list.headers.get('mcp-name')).toBeNull();
    expect(call.headers.get('mcp-protocol-version')).toBe('2026-07-28');
    expect(call.headers.get('mcp-name')).toBe('list_tickets');
    expect(call.headers.get('accept')).toBe('application/json, text/event-stream');
  });

  it('answers two questions in two rounds, the second built from the first answer', async () => {
    const { client, wire } = recordingClient();
    client.onElicitation((p) =>
      p.message.startsWith('Which team')
        ? { action: 'accept', content: { team: 'engineering' } }
        : { action: 'accept', content: { agent: 'Lee' } },
    );
    const result = await client.callTool({ name: 'reassign_ticket', arguments: { id: 'T-2' } });
    expect(result.structuredContent).toEqual({ reassigned: true, id: 'T-2', team: 'engineering', agent: 'Lee' });
    expect(wire.map((w) => Object.keys(w.body.params.inputResponses ?? {}))).toEqual([[], ['elicitation-1'], ['elicitation-2']]);
  });

  it('gives up after maxRounds with a clear error', async () => {
    const { client, wire } = recordingClient({ maxRounds: 1 });
    client.onElicitation((p) =>
      p.message.startsWith('Which team')
        ? { action: 'accept', content: { team: 'billing' } }
        : { action: 'accept', content: { agent: 'Sam' } },
    );
    await expect(client.callTool({ name: 'reassign_ticket', arguments: { id: 'T-2' } })).rejects.toThrow(/after 1 rounds.*maxRounds/);
    expect(wire).toHaveLength(2);
  });
});

describe('the one handler', () => {
  it('declines when no handler is registered', async () => {
    const { client } = recordingClient();
    const result = await client.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } });
    expect(result.structuredContent).toEqual({ closed: false, reason: 'The user chose decline' });
  });

  it('cancels when the handler throws', async () => {
    const { client } = recordingClient();
    client.onElicitation(() => {
      throw new Error('the dialog crashed');
    });
    const result = await client.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } });
    expect(result.structuredContent).toEqual({ closed: false, reason: 'The user chose cancel' });
  });

  it('gives the handler a signal that fires when the call is abandoned', async () => {
    const { client } = recordingClient();
    const call = new AbortController();
    let seen: AbortSignal | undefined;
    client.onElicitation((_params, { signal }) => {
      seen = signal;
      return new Promise<ElicitAnswer>((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' })));
    });
    const pending = client.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } }, { signal: call.signal });
    await expect.poll(() => seen).toBeDefined();
    expect(seen!.aborted).toBe(false);
    call.abort(new Error('the user left'));
    await expect(pending).rejects.toThrow('the user left');
    expect(seen!.aborted).toBe(true);
  });
});

describe('capabilities', () => {
  it('declares form only by default, so a URL-mode question is refused with -32021', async () => {
    const { client } = recordingClient();
    const error = await client.callTool({ name: 'connect_billing' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpWireError);
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } });
  });

  it('declares url when asked, and hands the handler the page to open', async () => {
    const { client } = recordingClient({ elicitation: { form: true, url: true } });
    let asked: ElicitRequestParams | undefined;
    client.onElicitation((params) => {
      asked = params;
      return { action: 'accept' };
    });
    expect((await client.callTool({ name: 'connect_billing' })).structuredContent).toEqual({ connected: true });
    expect(asked).toMatchObject({ mode: 'url', url: 'https://billing.example/connect?state=abc123', elicitationId: 'billing-abc123' });
  });

  it('declares nothing with elicitation: false, and the server asks through the fallback', async () => {
    const { client } = recordingClient({ elicitation: false });
    const result = await client.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } });
    expect(result._meta).toMatchObject({ elicitationPending: { message: expect.stringContaining('T-1') } });
  });
});

describe('errors and raw requests', () => {
  it('throws JSON-RPC errors from request() and returns them from send()', async () => {
    const { client } = recordingClient();
    await expect(client.callTool({ name: 'no_such_tool' })).rejects.toMatchObject({ code: -32602, message: 'Unknown tool: no_such_tool' });
    const raw = await client.send({ method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
    expect(raw.error.code).toBe(-32602);
  });

  it('keeps what a raw request sets in _meta and fills in the rest', async () => {
    const { client, wire } = recordingClient();
    const response = await client.send({
      method: 'tools/call',
      params: { name: 'close_ticket', arguments: { id: 'T-1' }, _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } },
    });
    expect(response.result._meta.elicitationPending).toBeDefined();
    expect(wire[0]!.body.params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    expect(wire[0]!.body.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({});
  });

  it('reports a response that is not JSON-RPC as an HTTP error', async () => {
    const client = new McpClient({ url: 'http://localhost/nowhere', fetch: (request) => handler(request) });
    open.push(client);
    await expect(client.listTools()).rejects.toMatchObject({ name: 'McpHttpError', status: 404 });
  });

  it('refuses an unknown protocol version before sending anything', async () => {
    const { client, wire } = recordingClient({ protocolVersion: '2030-01-01' });
    await expect(client.listTools()).rejects.toBeInstanceOf(McpClientError);
    expect(wire).toHaveLength(0);
  });

  it("picks 2026-07-28 with 'auto' when the server discovers it", async () => {
    const { client } = recordingClient({ protocolVersion: 'auto' });
    expect(await client.protocolVersion()).toBe('2026-07-28');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('delete_ticket');
  });
});
