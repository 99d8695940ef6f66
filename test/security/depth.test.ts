// Issue #31, item 1: arrays and objects nested past MAX_JSON_DEPTH (128) in any field a client sends, on both eras,
// over HTTP and over stdio, and handed over in-process. Each is refused once, where the body is parsed, with -32602
// under the request's id (-32600 for an answer), never a 5xx, never a stack trace at ERROR, and the same server then
// serves a valid call.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect, createDirect, McpWireError } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { serveStdio } from 'parley-mcp/stdio';
import { ExchangeLog } from '../../src/adapters/exchange-log';
import { StdioBridge } from '../../src/cli/stdio-bridge';
import { canonicalJson } from '../../src/elicitation/request-state';
import { LEGACY } from '../helpers/legacy';
import { meta, read } from '../helpers/requests';
import { config } from './fixture';

const TOO_DEEP = 'Invalid params: the message nests arrays and objects deeper than 128 levels';
const ANSWER_TOO_DEEP = 'Invalid request: the message nests arrays and objects deeper than 128 levels';

const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const objects = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const SHAPES = { arrays, objects };
/** Where the 500 began (a 20 KB body), and far past it. */
const DEPTHS = [8_000, 100_000];

/** Stands in a message for the bomb: the message's JSON gets the nested text in its place. */
const BOMB = '\u0000bomb';
const withBomb = (message: unknown, bomb: string) => JSON.stringify(message).replace(JSON.stringify(BOMB), () => bomb);

const accept = { action: 'accept', content: { confirm: true } };

/** What a 2026-07-28 client can send a bomb in: each case's params (with `_meta` unless it sets its own). */
const modernCases = (state: string): [string, string, Record<string, unknown>][] => [
  ['tools/call arguments', 'tools/call', { name: 'close_ticket', arguments: { id: 'T-1', extra: BOMB } }],
  ['tools/call _meta', 'tools/call', { name: 'close_ticket', arguments: { id: 'T-1' }, _meta: { ...meta(), extra: BOMB } }],
  [
    'an answer in inputResponses',
    'tools/call',
    {
      name: 'close_ticket',
      arguments: { id: 'T-1' },
      inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: BOMB } } },
    },
  ],
  [
    'a member beside requestState',
    'tools/call',
    { name: 'close_ticket', arguments: { id: 'T-1' }, requestState: state, inputResponses: { 'elicitation-1': accept }, extra: BOMB },
  ],
  ['tools/list params', 'tools/list', { cursor: BOMB }],
  ['prompts/get arguments', 'prompts/get', { name: 'greet', arguments: { who: BOMB } }],
  ['resources/read params', 'resources/read', { uri: 'notes://ada', extra: BOMB }],
  [
    'completion/complete arguments',
    'completion/complete',
    { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'A' }, context: { arguments: BOMB } },
  ],
];

/** What a client before 2026-07-28 can send a bomb in, inside its session (`fallback`: one that declared no elicitation). */
const legacyCases: [string, string, Record<string, unknown>, 'asks' | 'fallback'][] = [
  ['tools/call arguments', 'tools/call', { name: 'close_ticket', arguments: { id: 'T-1', extra: BOMB } }, 'asks'],
  ['tools/call arguments, on the fallback', 'tools/call', { name: 'close_ticket', arguments: { id: 'T-1', extra: BOMB } }, 'fallback'],
  [
    'a sendElicitationResult answer',
    'tools/call',
    { name: 'sendElicitationResult', arguments: { elicitId: 'e-1', action: 'accept', content: { confirm: BOMB } } },
    'fallback',
  ],
  ['ping _meta', 'ping', { _meta: { extra: BOMB } }, 'asks'],
  ['prompts/get arguments', 'prompts/get', { name: 'greet', arguments: { who: BOMB } }, 'asks'],
  ['resources/read params', 'resources/read', { uri: 'notes://ada', extra: BOMB }, 'asks'],
  [
    'completion/complete arguments',
    'completion/complete',
    { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'A' }, context: { arguments: BOMB } },
    'asks',
  ],
];

describe('over HTTP (parley-mcp/node)', () => {
  let server: RunningServer;
  const errors: unknown[][] = [];
  const logger = { debug() {}, info() {}, warn() {}, error: (...line: unknown[]) => void errors.push(line) };
  let nextId = 1;

  beforeAll(async () => {
    server = await serve({ ...config, logger }, { port: 0 });
  });
  afterAll(() => server?.close());

  async function post(text: string, headers: Record<string, string>) {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: text,
    });
    expect(response.status).toBeLessThan(500);
    return read(response);
  }
  const modernHeaders = (method: string, params: Record<string, unknown>) => {
    const name = (params.name ?? params.uri) as string | undefined;
    return { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) };
  };
  const modern = (method: string, params: Record<string, unknown>, bomb = '') => {
    const id = nextId++;
    const text = withBomb({ jsonrpc: '2.0', id, method, params: { _meta: meta(), ...params } }, bomb);
    return post(text, modernHeaders(method, params)).then((answer) => ({ id, ...answer }));
  };
  const openSession = async (capabilities: Record<string, unknown>) => {
    const init = { protocolVersion: LEGACY, capabilities, clientInfo: { name: 'raw', version: '1' } };
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: init }),
    });
    expect(response.status).toBe(200);
    return response.headers.get('mcp-session-id')!;
  };
  const legacy = (session: string, message: unknown, bomb = '') =>
    post(withBomb(message, bomb), { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY });

  /** close_ticket asks, and the retry with the answer closes the ticket: the server still serves a full round. */
  async function fullModernRound(id: string) {
    const first = await modern('tools/call', { name: 'close_ticket', arguments: { id } });
    expect(first.body.result.resultType).toBe('input_required');
    const done = await modern('tools/call', {
      name: 'close_ticket',
      arguments: { id },
      requestState: first.body.result.requestState,
      inputResponses: { 'elicitation-1': accept },
    });
    expect(done.body.result.structuredContent).toEqual({ closed: true, id, note: '' });
    return first.body.result.requestState as string;
  }

  it.each(Object.entries(SHAPES))('refuses %s nested in every field of a 2026-07-28 request with -32602 under its id', async (_, shape) => {
    const state = await fullModernRound('T-2');
    for (const depth of DEPTHS)
      for (const [what, method, params] of modernCases(state)) {
        const { id, status, body } = await modern(method, params, shape(depth));
        expect({ what, depth, status, body }).toEqual({
          what,
          depth,
          status: 400,
          body: { jsonrpc: '2.0', id, error: { code: -32602, message: TOO_DEEP } },
        });
      }
    await fullModernRound('T-3');
    expect(errors).toEqual([]);
  });

  it.each(Object.entries(SHAPES))('refuses %s nested in every field an older client sends, its answers included', async (_, shape) => {
    const sessions = { asks: await openSession({ elicitation: {} }), fallback: await openSession({}) };
    for (const depth of DEPTHS) {
      for (const [what, method, params, kind] of legacyCases) {
        const id = nextId++;
        const { status, body } = await legacy(sessions[kind], { jsonrpc: '2.0', id, method, params }, shape(depth));
        expect({ what, depth, status, body }).toEqual({
          what,
          depth,
          status: 400,
          body: { jsonrpc: '2.0', id, error: { code: -32602, message: TOO_DEEP } },
        });
      }
      const answer = await legacy(sessions.asks, { jsonrpc: '2.0', id: 'q-1', result: { action: 'accept', content: BOMB } }, shape(depth));
      expect(answer).toEqual({ status: 400, body: { jsonrpc: '2.0', id: 'q-1', error: { code: -32600, message: ANSWER_TOO_DEEP } } });
      const init = { protocolVersion: LEGACY, capabilities: { elicitation: BOMB }, clientInfo: { name: 'raw', version: '1' } };
      const refused = await post(withBomb({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: init }, shape(depth)), {});
      expect(refused).toEqual({ status: 400, body: { jsonrpc: '2.0', id: 'init', error: { code: -32602, message: TOO_DEEP } } });
    }
    // The same sessions still serve: a call on the fallback asks through sendElicitationResult.
    const call = await legacy(sessions.fallback, {
      jsonrpc: '2.0',
      id: 'after',
      method: 'tools/call',
      params: { name: 'close_ticket', arguments: { id: 'T-4' } },
    });
    expect(call.body.result.content[0].text).toContain('sendElicitationResult');
    expect(errors).toEqual([]);
  });

  it('refuses a body that is nothing but nesting with -32600 and no id, and a bomb in the id itself', async () => {
    for (const shape of Object.values(SHAPES)) {
      const whole = await post(shape(100_000), {});
      expect(whole.status).toBe(400);
      expect(whole.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      const inId = await post(withBomb({ jsonrpc: '2.0', id: BOMB, method: 'ping' }, shape(8_000)), {});
      expect(inId.body).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid request: id must be a string or a number' },
      });
      const beside = await post(withBomb({ jsonrpc: '2.0', id: 'top', method: 'ping', params: {}, extra: BOMB }, shape(8_000)), {});
      expect(beside.body).toEqual({ jsonrpc: '2.0', id: 'top', error: { code: -32602, message: TOO_DEEP } });
    }
    expect(errors).toEqual([]);
  });

  it('counts the depth of the whole message, and never the brackets inside strings', async () => {
    // The message, params and arguments are three levels: 125 more are served, 126 are refused.
    const served = await modern('tools/call', { name: 'close_ticket', arguments: { id: 'T-5', extra: BOMB } }, arrays(125));
    expect(served.body.result.resultType).toBe('input_required');
    const refused = await modern('tools/call', { name: 'close_ticket', arguments: { id: 'T-5', extra: BOMB } }, objects(126));
    expect(refused.body.error).toEqual({ code: -32602, message: TOO_DEEP });
    const text = `${'[{'.repeat(5_000)}"\\"[\\\\`;
    const strings = await modern('tools/call', { name: 'close_ticket', arguments: { id: text, extra: [text, { [text]: text }] } });
    expect(strings.body.result.resultType).toBe('input_required');
  });
});

describe('over stdio (a spawned server, its log on stderr)', () => {
  let child: ChildProcessWithoutNullStreams;
  let stdout = '';
  let stderr = '';
  const replies = () =>
    stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { id?: unknown; method?: string; result?: any; error?: any });
  const reply = (id: unknown) =>
    vi.waitFor(
      () => {
        const found = replies().find((m) => m.id === id && m.method === undefined);
        if (!found) throw new Error(`no reply ${String(id)} yet`);
        return found;
      },
      { timeout: 15_000, interval: 5 },
    );
  let nextId = 1;
  const ask = (method: string, params: Record<string, unknown>, bomb = '') => {
    const id = nextId++;
    child.stdin.write(`${withBomb({ jsonrpc: '2.0', id, method, params }, bomb)}\n`);
    return reply(id).then((answer) => ({ id, answer }));
  };

  beforeAll(async () => {
    child = spawn(process.execPath, ['--conditions=parley-source', '--import', 'tsx', 'test/security/stdio-log-fixture.ts']);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    expect((await ask('tools/list', { _meta: meta() })).answer.result.tools.length).toBeGreaterThan(0);
  });
  afterAll(() => child?.kill());

  it('refuses a bomb in every field of both eras with -32602 under its id, logs no error, and serves a round after', async () => {
    const first = await ask('tools/call', { _meta: meta(), name: 'close_ticket', arguments: { id: 'T-1' } });
    const state = first.answer.result.requestState as string;
    for (const shape of Object.values(SHAPES))
      for (const depth of DEPTHS)
        for (const [what, method, params] of modernCases(state)) {
          const { id, answer } = await ask(method, { _meta: meta(), ...params }, shape(depth));
          expect({ what, depth, answer }).toEqual({
            what,
            depth,
            answer: { jsonrpc: '2.0', id, error: { code: -32602, message: TOO_DEEP } },
          });
        }
    const init = { protocolVersion: LEGACY, capabilities: { elicitation: {} }, clientInfo: { name: 'x', version: '1' } };
    const refusedInit = await ask('initialize', { ...init, capabilities: { elicitation: BOMB } }, arrays(8_000));
    expect(refusedInit.answer.error).toEqual({ code: -32602, message: TOO_DEEP });
    expect((await ask('initialize', init)).answer.result.protocolVersion).toBe(LEGACY);
    for (const shape of Object.values(SHAPES))
      for (const depth of DEPTHS)
        for (const [what, method, params, kind] of legacyCases) {
          if (kind === 'fallback') continue; // this session declared elicitation
          const { id, answer } = await ask(method, params, shape(depth));
          expect({ what, depth, answer }).toEqual({
            what,
            depth,
            answer: { jsonrpc: '2.0', id, error: { code: -32602, message: TOO_DEEP } },
          });
        }
    // An older client's call asks on stdout; a deep answer is refused, a valid one closes the ticket.
    const id = nextId++;
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'close_ticket', arguments: { id: 'T-6' } } })}\n`,
    );
    const question = await vi.waitFor(() => {
      const found = replies().find((m) => m.method === 'elicitation/create');
      if (!found) throw new Error('no question yet');
      return found;
    });
    child.stdin.write(`${withBomb({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: BOMB } }, objects(100_000))}\n`);
    await vi.waitFor(() => {
      if (!replies().some((m) => m.id === question.id && m.error)) throw new Error('no refusal yet');
    });
    expect(replies().find((m) => m.id === question.id && m.error)!.error).toEqual({ code: -32600, message: ANSWER_TOO_DEEP });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: question.id, result: accept })}\n`);
    expect((await reply(id)).result.structuredContent).toEqual({ closed: true, id: 'T-6', note: '' });
    expect(stderr).not.toMatch(/ERROR|RangeError|\n\s+at /);
  });
});

/** A value nested `n` deep, built without recursion. */
function nested(n: number, kind: 'arrays' | 'objects'): unknown {
  let value: unknown = 1;
  for (let i = 0; i < n; i++) value = kind === 'arrays' ? [value] : { a: value };
  return value;
}

describe('in-process (connect, createDirect)', () => {
  it.each(['arrays', 'objects'] as const)(
    'refuses %s nested 100,000 deep in arguments and answers with -32602, then serves',
    async (kind) => {
      const connected = await connect(config);
      const direct = await createDirect(config);
      for (const server of [connected, direct]) {
        const error = await server.callTool('close_ticket', { id: 'T-1', extra: nested(100_000, kind) }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(McpWireError);
        expect(error).toMatchObject({ code: -32602 });
      }
      connected.onElicitation(() => ({ action: 'accept', content: { confirm: true, deep: nested(100_000, kind) } }) as never);
      const answered = await connected.callTool('close_ticket', { id: 'T-1' }).catch((e: unknown) => e);
      expect(answered).toMatchObject({ code: -32602 });
      connected.onElicitation(() => ({ action: 'accept', content: { confirm: true } }));
      expect((await connected.callTool('close_ticket', { id: 'T-1' })).structuredContent).toEqual({ closed: true, id: 'T-1', note: '' });
      expect((await direct.callTool('close_ticket', { id: 'T-1' })).content[0]).toMatchObject({ type: 'text' });
      await Promise.all([connected.dispose(), direct.dispose()]);
    },
  );

  it('bounds the arguments digest itself: deep or circular values throw -32602, not a RangeError', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    for (const value of [nested(100_000, 'arrays'), nested(129, 'objects'), circular])
      expect(() => canonicalJson(value)).toThrow(expect.objectContaining({ code: -32602 }));
    expect(canonicalJson(nested(128, 'arrays'))).toBe(arrays(128).replace('[]', '[1]'));
  });
});

describe("the access log and parley dev's stdio log", () => {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => void rejections.push(reason);
  beforeAll(() => void process.on('unhandledRejection', onRejection));
  afterAll(() => void process.off('unhandledRejection', onRejection));

  it('read a deep id or requestId as no message: no 5xx, no unhandled rejection, a line for each request', async () => {
    const lines: string[] = [];
    const logger = { debug() {}, warn() {}, error: (line: string) => void lines.push(line), info: (line: string) => void lines.push(line) };
    const server = await serve({ ...config, logger }, { port: 0, accessLog: true });
    try {
      const post = (text: string) =>
        fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: text });
      const bodies = [
        withBomb({ jsonrpc: '2.0', id: BOMB, method: 'tools/list' }, arrays(100_000)),
        withBomb({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: BOMB } }, arrays(100_000)),
        withBomb({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: BOMB } }, objects(100_000)),
      ];
      for (const body of bodies) expect((await post(body)).status).toBeLessThan(500);
      await vi.waitFor(() => expect(lines.filter((l) => l.includes('POST /mcp'))).toHaveLength(3));
      expect(lines.filter((l) => l.includes('ERROR'))).toEqual([]);
      expect(rejections).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('stdio: the observer of each message (parley dev) gets the deep line as text, and the server answers', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let out = '';
    output.on('data', (c: Buffer) => (out += c.toString()));
    const log = new ExchangeLog(() => {});
    const stdio = await serveStdio(config, {
      input,
      output,
      exitOnClose: false,
      observe: (direction, message) => (direction === 'in' ? log.inbound(message) : log.outbound(message)),
    });
    input.write(`${withBomb({ jsonrpc: '2.0', id: BOMB, method: 'tools/list' }, arrays(100_000))}\n`);
    input.write(`${withBomb({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: BOMB } }, arrays(100_000))}\n`);
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'tools/list', params: { _meta: meta() } })}\n`);
    await vi.waitFor(() => expect(out).toContain('"id":"after"'));
    expect(JSON.parse(out.split('\n')[0]!)).toMatchObject({ id: null, error: { code: -32600 } });
    input.end();
    await stdio.closed;
    expect(rejections).toEqual([]);
  });
});

describe('parley dev --stdio: the bridge between the client and the server it restarts', () => {
  it('carries a line with a deep id to the server, which refuses it, and carries the next request', async () => {
    const input = new PassThrough();
    const lines: string[] = [];
    const bridge = new StdioBridge(
      (line) => void lines.push(line),
      () => {},
    );
    bridge.listen(input);
    const child = spawn(process.execPath, ['--conditions=parley-source', '--import', 'tsx', 'test/security/stdio-log-fixture.ts']);
    try {
      bridge.attach(child);
      input.write(`${withBomb({ jsonrpc: '2.0', id: BOMB, method: 'tools/list' }, arrays(100_000))}\n`);
      input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'tools/list', params: { _meta: meta() } })}\n`);
      await vi.waitFor(() => expect(lines.some((l) => l.includes('"id":"after"'))).toBe(true), { timeout: 15_000 });
      expect(JSON.parse(lines[0]!)).toMatchObject({ id: null, error: { code: -32600 } });
    } finally {
      child.kill();
    }
  });
});
