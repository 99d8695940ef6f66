// A hostile client's matrix: every name Object.prototype answers to, sent wherever a name from outside is looked up,
// on every transport. Each gets its documented error (or is a name like any other), never a 5xx, never an internal
// object, and the server serves a full elicitation round afterwards.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect, createDirect, createFetchHandler, FrontMcpInstance, McpWireError } from 'parley-mcp';
import { McpClient, type ClientTransport } from 'parley-mcp/client';
import { main } from '../../src/cli/index';
import { LEGACY, legacyPost, openLegacySession, request, sseReader } from '../helpers/legacy';
import { mcpRequest, meta, read } from '../helpers/requests';
import { config, INTERNAL, PROTOTYPE_NAMES } from './fixture';

const handler = createFetchHandler(config);
/** An object with one own key, as JSON.parse makes it: `{ [name]: value }` would too, but reads less plainly. */
const own = (key: string, value: unknown): Record<string, unknown> => Object.fromEntries([[key, value]]);
const accept = { action: 'accept', content: { confirm: true } };
const TASK_NOT_FOUND = { code: -32602, message: 'Task not found: no live task with this id for this caller' };

function expectClean(status: number, text: string): void {
  expect(status).toBeLessThan(500);
  for (const name of INTERNAL) expect(text).not.toContain(name);
}

/** One 2026-07-28 request: status and parsed body, after the checks every answer must pass. */
async function modern(method: string, params: Record<string, unknown> = {}, headers: Record<string, string | null> = {}) {
  const response = await handler(mcpRequest(method, params, { headers }));
  const text = await response.text();
  expectClean(response.status, text);
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** close_ticket asks, and an accepted answer with the state closes the ticket: the server still works. */
async function fullModernRound(): Promise<void> {
  const args = { id: 'T-1' };
  const first = await modern('tools/call', { name: 'close_ticket', arguments: args });
  expect(first.body.result).toMatchObject({
    resultType: 'input_required',
    inputRequests: { 'elicitation-1': { method: 'elicitation/create' } },
  });
  const done = await modern('tools/call', {
    name: 'close_ticket',
    arguments: args,
    requestState: first.body.result.requestState,
    inputResponses: { 'elicitation-1': accept },
  });
  expect(done.body.result.structuredContent).toEqual({ closed: true, id: 'T-1', note: '' });
}

describe.each(PROTOTYPE_NAMES)('HTTP 2026-07-28, the name %s', (name) => {
  it('as a method is -32601 Method not found (404); as a notification it is accepted', async () => {
    const { status, body } = await modern(name);
    expect(status).toBe(404);
    expect(body.error).toEqual({ code: -32601, message: `Method not found: ${name}` });
    expect(body.result).toBeUndefined();
    const note = await handler(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': name,
        },
        body: JSON.stringify({ jsonrpc: '2.0', method: name, params: { _meta: meta() } }),
      }),
    );
    expect(note.status).toBe(202);
    // A request that names no version is served too: the same answer.
    const bare = await handler(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: name }),
      }),
    );
    const bareText = await bare.text();
    expectClean(bare.status, bareText);
    expect(JSON.parse(bareText).error.code).toBe(-32601);
  });

  it('as a tool, prompt, resource or completion ref is -32602 with the existing message', async () => {
    expect((await modern('tools/call', { name, arguments: {} })).body.error).toEqual({ code: -32602, message: `Unknown tool: ${name}` });
    expect((await modern('prompts/get', { name })).body.error).toEqual({ code: -32602, message: `Unknown prompt: ${name}` });
    expect((await modern('resources/read', { uri: name })).body.error).toEqual({
      code: -32602,
      message: 'Resource not found',
      data: { uri: name },
    });
    const argument = { name: 'who', value: '' };
    expect((await modern('completion/complete', { ref: { type: 'ref/prompt', name }, argument })).body.error).toMatchObject({
      code: -32602,
      message: `Unknown prompt: ${name}`,
    });
    expect((await modern('completion/complete', { ref: { type: 'ref/resource', uri: name }, argument })).body.error).toMatchObject({
      code: -32602,
      message: `Unknown resource template: ${name}`,
    });
    expect((await modern('completion/complete', { ref: { type: name }, argument })).body.error.code).toBe(-32602);
  });

  it('as a required prompt argument is missing until the client sends its own', async () => {
    const others = PROTOTYPE_NAMES.filter((n) => n !== '__proto__');
    const all = Object.fromEntries(others.map((n) => [n, 'v']));
    if (name !== '__proto__') {
      const { [name]: _left, ...rest } = all;
      expect((await modern('prompts/get', { name: 'needs', arguments: rest })).body.error).toEqual({
        code: -32602,
        message: `Missing required argument for prompt "needs": ${name}`,
      });
    }
    const given = await modern('prompts/get', { name: 'needs', arguments: { ...all, ...own(name, 'v') } });
    expect(given.body.result.messages[0].content.text).toBe(`got ${[...others].sort().join(',')}`);
  });

  it('as a completion argument has no completer: no suggestions, not a call of Object.prototype', async () => {
    for (const ref of [
      { type: 'ref/resource', uri: 'notes://{owner}' },
      { type: 'ref/prompt', name: 'greet' },
    ]) {
      const { status, body } = await modern('completion/complete', { ref, argument: { name, value: 'a' } });
      expect(status).toBe(200);
      expect(body.result.completion).toEqual({ values: [], total: 0, hasMore: false });
    }
  });

  it('as an inputResponses key does not answer the question, with or without a state', async () => {
    const args = { id: 'T-1' };
    const first = await modern('tools/call', {
      name: 'close_ticket',
      arguments: args,
      inputResponses: own(name, own('elicitation-1', accept)),
    });
    expect(first.body.result.resultType).toBe('input_required');
    const again = await modern('tools/call', {
      name: 'close_ticket',
      arguments: args,
      requestState: first.body.result.requestState,
      inputResponses: own(name, accept),
    });
    expect(again.body.result.resultType).toBe('input_required');
    expect(again.body.result.structuredContent).toBeUndefined();
  });

  it('as a key of arguments, _meta, params or the capabilities changes nothing', async () => {
    const asked = await modern('tools/call', { name: 'close_ticket', arguments: { id: 'T-1', ...own(name, { id: 'T-2' }) } });
    expect(asked.body.result.resultType).toBe('input_required');
    const listed = await modern('tools/list', { ...own(name, { tools: [] }), _meta: { ...meta(), ...own(name, { progressToken: 1 }) } });
    expect(listed.body.result.tools.map((t: { name: string }) => t.name)).toContain('close_ticket');
    const capabilities = await modern('tools/call', {
      name: 'close_ticket',
      arguments: { id: 'T-1' },
      _meta: meta({ elicitation: own(name, { url: {} }) }),
    });
    expect(capabilities.body.result.resultType).toBe('input_required');
  });

  it('as a property mirrored into an Mcp-Param header is needed only when the argument is there', async () => {
    const i = PROTOTYPE_NAMES.indexOf(name);
    const none = await modern('tools/call', { name: 'mirrored', arguments: {} });
    expect(none.status).toBe(200);
    expect(none.body.result.structuredContent).toEqual({ keys: [], proto: true });
    const sent = await modern('tools/call', { name: 'mirrored', arguments: own(name, 'v') }, { [`mcp-param-p${i}`]: 'v' });
    if (name === '__proto__') {
      // The key is dropped from the body as it is read, so the header mirrors nothing.
      expect(sent.body.error.code).toBe(-32020);
    } else {
      expect(sent.body.result.structuredContent).toEqual({ keys: [name], proto: true });
      const missing = await modern('tools/call', { name: 'mirrored', arguments: own(name, 'v') });
      expect(missing.body.error).toMatchObject({
        code: -32020,
        message: `Header mismatch: the Mcp-Param-P${i} header is required when arguments.${name} is set`,
      });
    }
  });

  it('as a required field of a hand-written form is not answered by Object.prototype', async () => {
    const args = { field: name };
    const first = await modern('tools/call', { name: 'ask_field', arguments: args });
    const { requestState } = first.body.result;
    const empty = await modern('tools/call', {
      name: 'ask_field',
      arguments: args,
      requestState,
      inputResponses: { 'elicitation-1': { action: 'accept', content: {} } },
    });
    expect(empty.body.result).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
    expect(empty.body.result.content[0].text).toContain(`${name}: required`);
    if (name !== '__proto__') {
      const given = await modern('tools/call', {
        name: 'ask_field',
        arguments: args,
        requestState,
        inputResponses: { 'elicitation-1': { action: 'accept', content: own(name, 'v') } },
      });
      expect(given.body.result.structuredContent).toEqual({ status: 'accept', own: true, value: 'v' });
    }
  });

  it('as a question key is a key like any other (and __proto__ is refused), and as an elicitId finds nothing', async () => {
    const args = { key: name };
    const first = await modern('tools/call', { name: 'ask_keyed', arguments: args });
    if (name === '__proto__') {
      expect(first.body.result).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
    } else {
      expect(Object.keys(first.body.result.inputRequests)).toEqual([name]);
      const done = await modern('tools/call', {
        name: 'ask_keyed',
        arguments: args,
        requestState: first.body.result.requestState,
        inputResponses: own(name, accept),
      });
      expect(done.body.result.structuredContent).toEqual({ status: 'accept', confirm: true });
    }
    const answered = await modern('tools/call', {
      name: 'sendElicitationResult',
      arguments: { elicitId: name, action: 'accept', content: {} },
    });
    expect(answered.body.result).toMatchObject({ isError: true });
    expect(answered.body.result.content[0].text).toContain(`No pending elicitation found for ID: ${name}`);
  });

  it('leaves the server serving a full elicitation round', fullModernRound);
});

describe('the inputResponses __proto__ attack of issue #14', () => {
  it('does not close the ticket, sent as raw JSON', async () => {
    const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":${JSON.stringify(meta())},"name":"close_ticket","arguments":{"id":"T-1"},"inputResponses":{"__proto__":{"elicitation-1":{"action":"accept","content":{"confirm":true}}}}}}`;
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'close_ticket',
    };
    for (const text of [body, body.replace('"__proto__"', '"\\u005f_proto__"')]) {
      const { status, body: answer } = await read(
        await handler(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: text })),
      );
      expect(status).toBe(200);
      expect(answer.result.resultType).toBe('input_required');
      expect(answer.result.structuredContent).toBeUndefined();
    }
  });
});

describe.each(PROTOTYPE_NAMES)('HTTP 2025-11-25 with a session, the name %s', (name) => {
  const legacy = async (session: string, body: unknown) => {
    const response = await handler(legacyPost(body, session));
    const text = await response.text();
    expectClean(response.status, text);
    // A call answers on its event stream: its body is the JSON-RPC response the stream ends with.
    if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream'))
      return read(new Response(text, { status: response.status, headers: response.headers }));
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  it('gets the documented errors as a method, tool, prompt, resource, level or elicitId', async () => {
    const session = await openLegacySession(handler);
    const method = await legacy(session, request(name));
    expect(method.status).toBe(200);
    expect(method.body.error).toEqual({ code: -32601, message: `Method not found: ${name}` });
    expect((await legacy(session, request('tools/call', { name, arguments: {} }))).body.error).toEqual({
      code: -32602,
      message: `Unknown tool: ${name}`,
    });
    expect((await legacy(session, request('prompts/get', { name }))).body.error).toEqual({
      code: -32602,
      message: `Unknown prompt: ${name}`,
    });
    expect((await legacy(session, request('resources/read', { uri: name }))).body.error).toMatchObject({
      code: -32602,
      message: 'Resource not found',
    });
    expect((await legacy(session, request('logging/setLevel', { level: name }))).body.error.code).toBe(-32602);
    const completion = await legacy(
      session,
      request('completion/complete', { ref: { type: 'ref/resource', uri: 'notes://{owner}' }, argument: { name, value: 'a' } }),
    );
    expect(completion.body.result.completion.values).toEqual([]);
    // A response to a request this server never sent is refused (no call waits for it); a notification and a cancel
    // of nothing are accepted and ignored.
    const stray = await handler(legacyPost({ jsonrpc: '2.0', id: name, result: own(name, {}) }, session));
    expect(stray.status).toBe(410);
    expect((await stray.json()).error).toMatchObject({ code: -31001, data: { reason: 'no-question' } });
    expect((await handler(legacyPost({ jsonrpc: '2.0', method: name, params: {} }, session))).status).toBe(202);
    expect(
      (await handler(legacyPost({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: name } }, session))).status,
    ).toBe(202);
    const fallback = await openLegacySession(handler, {});
    const answered = await legacy(
      fallback,
      request('tools/call', { name: 'sendElicitationResult', arguments: { elicitId: name, action: 'accept' } }),
    );
    expect(answered.body.result.content[0].text).toContain(`No pending elicitation found for ID: ${name}`);
  });

  it('leaves the server serving a full elicitation round on the call stream', async () => {
    const session = await openLegacySession(handler);
    const events = sseReader(await handler(legacyPost(request('tools/call', { name: 'close_ticket', arguments: { id: 'T-9' } }), session)));
    const question = (await events.next())!;
    expect(question.data.method).toBe('elicitation/create');
    expect((await handler(legacyPost({ jsonrpc: '2.0', id: question.data.id, result: accept }, session))).status).toBe(202);
    expect((await events.next())!.data.result.structuredContent).toEqual({ closed: true, id: 'T-9', note: '' });
  });
});

describe('stdio (a spawned server)', () => {
  let child: ChildProcessWithoutNullStreams;
  let stdout = '';
  const replies = () =>
    stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { id?: unknown; result?: any; error?: any });
  const reply = async (id: number | string) => {
    // vi.waitFor, not expect.poll: beforeAll asks too.
    return vi.waitFor(
      () => {
        const found = replies().find((m) => m.id === id);
        if (!found) throw new Error(`no reply ${String(id)} yet`);
        return found;
      },
      { timeout: 10_000, interval: 5 },
    );
  };
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  let next = 1;
  const ask = async (method: string, params: Record<string, unknown>) => {
    const id = next++;
    send({ jsonrpc: '2.0', id, method, params });
    const answer = await reply(id);
    for (const name of INTERNAL) expect(JSON.stringify(answer)).not.toContain(name);
    return answer;
  };

  beforeAll(async () => {
    child = spawn(process.execPath, ['--conditions=parley-source', '--import', 'tsx', 'test/security/stdio-fixture.ts']);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    // The first answer may wait for the process to start: tsx compiles the fixture first.
    expect(
      (await ask('tools/list', { _meta: meta() }).catch(() => ask('tools/list', { _meta: meta() }))).result.tools.length,
    ).toBeGreaterThan(0);
  });
  afterAll(() => child?.kill());

  it('answers each name with the documented error in both eras, then serves a full round', async () => {
    for (const name of PROTOTYPE_NAMES) {
      expect((await ask(name, { _meta: meta() })).error).toEqual({ code: -32601, message: `Method not found: ${name}` });
      expect((await ask('tools/call', { _meta: meta(), name, arguments: {} })).error).toEqual({
        code: -32602,
        message: `Unknown tool: ${name}`,
      });
      expect((await ask('prompts/get', { _meta: meta(), name })).error).toEqual({ code: -32602, message: `Unknown prompt: ${name}` });
      const keyed = await ask('tools/call', {
        _meta: meta(),
        name: 'close_ticket',
        arguments: { id: 'T-1' },
        inputResponses: own(name, own('elicitation-1', accept)),
      });
      expect(keyed.result.resultType).toBe('input_required');
      const tasks = meta({ elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } });
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel'])
        expect((await ask(method, { _meta: tasks, taskId: name, inputResponses: own(name, accept) })).error).toEqual(TASK_NOT_FOUND);
    }
    const first = await ask('tools/call', { _meta: meta(), name: 'close_ticket', arguments: { id: 'T-3' } });
    const done = await ask('tools/call', {
      _meta: meta(),
      name: 'close_ticket',
      arguments: { id: 'T-3' },
      requestState: first.result.requestState,
      inputResponses: { 'elicitation-1': accept },
    });
    expect(done.result.structuredContent).toEqual({ closed: true, id: 'T-3', note: '' });

    // The same process after initialize: a client before 2026-07-28.
    expect(
      (await ask('initialize', { protocolVersion: LEGACY, capabilities: { elicitation: {} }, clientInfo: { name: 'x', version: '1' } }))
        .result.protocolVersion,
    ).toBe(LEGACY);
    for (const name of PROTOTYPE_NAMES) {
      expect((await ask(name, {})).error).toEqual({ code: -32601, message: `Method not found: ${name}` });
      expect((await ask('tools/call', { name, arguments: {} })).error).toEqual({ code: -32602, message: `Unknown tool: ${name}` });
      for (const method of ['tasks/get', 'tasks/cancel', 'tasks/result'])
        expect((await ask(method, { taskId: name })).error).toEqual(TASK_NOT_FOUND);
    }
    const id = next++;
    send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'close_ticket', arguments: { id: 'T-4' } } });
    await expect
      .poll(() => replies().find((m) => (m as { method?: string }).method === 'elicitation/create'), { timeout: 10_000 })
      .toBeDefined();
    const question = replies().find((m) => (m as { method?: string }).method === 'elicitation/create')!;
    send({ jsonrpc: '2.0', id: question.id, result: accept });
    expect((await reply(id)).result.structuredContent).toEqual({ closed: true, id: 'T-4', note: '' });
  });
});

describe.each(PROTOTYPE_NAMES)('in-process, the name %s', (name) => {
  it('is an unknown tool to connect(), createDirect() and FrontMcpInstance.createDirect(), which still serve a round', async () => {
    const connected = await connect(config);
    connected.onElicitation(() => ({ action: 'accept', content: { confirm: true } }));
    const direct = await createDirect(config);
    const instance = await FrontMcpInstance.createDirect(config);
    for (const server of [connected, direct, instance]) {
      const error = await server.callTool(name, {}).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(McpWireError);
      expect(error).toMatchObject({ code: -32602, message: `Unknown tool: ${name}` });
    }
    for (const server of [direct, instance]) {
      const answered = await server.callTool('sendElicitationResult', { elicitId: name, action: 'accept' });
      expect(answered.content[0]).toMatchObject({ text: expect.stringContaining(`No pending elicitation found for ID: ${name}`) });
    }
    // In-process arguments lose their __proto__ keys too.
    const mirrored = await connected.callTool('mirrored', JSON.parse(`{${JSON.stringify(name)}:"v"}`));
    expect(mirrored.structuredContent).toEqual({ keys: name === '__proto__' ? [] : [name], proto: true });
    expect((await connected.callTool('close_ticket', { id: 'T-1' })).structuredContent).toEqual({ closed: true, id: 'T-1', note: '' });
    const dana = { authContext: { user: { sub: 'dana' } } };
    const asked = await direct.callTool('close_ticket', { id: 'T-2' }, dana);
    const { elicitId } = (asked._meta as { elicitationPending: { elicitId: string } }).elicitationPending;
    expect(
      (await direct.callTool('sendElicitationResult', { elicitId, action: 'accept', content: { confirm: true } }, dana)).structuredContent,
    ).toEqual({ closed: true, id: 'T-2', note: '' });
    for (const server of [connected, direct, instance]) await server.dispose();
  });
});

describe('the client, facing a hostile server', () => {
  /** A transport that answers from a script: each send yields what the next step gives for that message. */
  function scripted(step: (message: any) => unknown[]): ClientTransport & { sent: any[] } {
    const sent: any[] = [];
    return {
      sent,
      async *send(message) {
        sent.push(message);
        for (const m of step(message)) yield m as never;
      },
    };
  }

  it('answers a server request whose method is a prototype name with -32601', async () => {
    const transport = scripted((m) => {
      if (m.method === 'initialize')
        return [
          { jsonrpc: '2.0', id: m.id, result: { protocolVersion: LEGACY, capabilities: {}, serverInfo: { name: 's', version: '1' } } },
        ];
      if (m.method === 'tools/list')
        return [
          ...PROTOTYPE_NAMES.map((name, i) => ({ jsonrpc: '2.0', id: `s-${i}`, method: name, params: {} })),
          { jsonrpc: '2.0', id: m.id, result: { tools: [] } },
        ];
      return [];
    });
    const client = new McpClient({ transport, protocolVersion: LEGACY });
    await client.listTools();
    await vi.waitFor(() => expect(transport.sent.filter((m) => typeof m.id === 'string').length).toBe(PROTOTYPE_NAMES.length));
    for (const [i, name] of PROTOTYPE_NAMES.entries())
      expect(transport.sent.find((m) => m.id === `s-${i}`)).toMatchObject({
        error: { code: -32601, message: `Method not found: ${name}` },
      });
    await client.close();
  });

  it('keys its inputResponses by the server’s names without touching a prototype', async () => {
    const keys = JSON.parse(
      `{${PROTOTYPE_NAMES.map((n) => `${JSON.stringify(n)}:{"method":"elicitation/create","params":{"message":"q","requestedSchema":{"type":"object","properties":{}}}}`).join(',')}}`,
    );
    const transport = scripted((m) =>
      m.params.inputResponses
        ? [{ jsonrpc: '2.0', id: m.id, result: { content: [] } }]
        : [{ jsonrpc: '2.0', id: m.id, result: { resultType: 'input_required', inputRequests: keys, requestState: 's' } }],
    );
    const client = new McpClient({ transport });
    client.onElicitation(() => ({ action: 'accept', content: {} }));
    await client.callTool({ name: 't' });
    const { inputResponses } = transport.sent[1].params;
    expect(Object.keys(inputResponses).sort()).toEqual([...PROTOTYPE_NAMES].sort());
    expect(Object.getPrototypeOf(inputResponses)).toBe(null);
    await client.close();
  });
});

describe('the CLI', () => {
  it.each(PROTOTYPE_NAMES)('says `parley %s` is an unknown command', async (name) => {
    let written = '';
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((written += String(chunk)), true));
    try {
      expect(await main([name])).toBe(1);
    } finally {
      write.mockRestore();
    }
    expect(written).toContain(`parley: unknown command "${name}"`);
    expect(written).toContain('usage:');
  });
});
