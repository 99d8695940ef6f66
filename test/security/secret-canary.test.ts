// Secret canaries: servers started with distinctive secrets (a real redis-server with requirepass, Redis over HTTP with
// an Upstash token, VAULT_SECRET, MCP_SESSION_SECRET, MCP_ELICITATION_SECRET, an HS256 auth secret) get a scripted
// session of good, bad and fuzzed requests on both eras. No response body, SSE event, log line or console line may carry
// any secret, nor its base64, base64url, hex or URL-encoded form; nor may JSON.stringify or util.inspect of a built server.
import { format, inspect } from 'node:util';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFetchHandler, type FrontMcpConfigInput } from 'parley-mcp';
import { buildServer } from '../../src/app/build-server';
import type { QuestionService } from '../../src/inbox/service';
import { legacyDesk } from '../fixtures/legacy-desk';
import { bearer } from '../helpers/bearer';
import { LEGACY } from '../helpers/legacy';
import { mcpRequest, meta, MODERN, rawPost } from '../helpers/requests';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';

const SECRET = {
  redisPassword: 'rp-canary-7Qx2wL/x+y',
  wrongRedisPassword: 'wrong-rp-canary-Bv61nE',
  vault: 'vault-canary-Zk39aR',
  session: 'session-canary-Mn44bT',
  elicitation: 'elicit-canary-Ew12dU',
  jwt: 'jwt-canary-Hs256-Pq81-0123456789abcdef',
  upstash: 'upstash-canary-Tk55cY',
};

/** Each secret as it is and in the encodings a leak might take. */
const FORMS = Object.entries(SECRET).flatMap(([name, value]) => {
  const bytes = Buffer.from(value);
  const forms = [
    value,
    encodeURIComponent(value),
    bytes.toString('base64'),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
  ];
  return [...new Set(forms)].map((form) => ({ name, form }));
});

/** Everything the servers said: response bodies, SSE events, log lines with their details, console lines. */
const seen: { where: string; text: string }[] = [];
const note = (where: string, text: string) => seen.push({ where, text });

function leaksIn(texts: { where: string; text: string }[]): string[] {
  const leaks: string[] = [];
  for (const { where, text } of texts)
    for (const { name, form } of FORMS)
      if (text.includes(form)) leaks.push(`${name} (as ${JSON.stringify(form)}) in ${where}: ${text.slice(0, 300)}`);
  return leaks;
}

const capturingLogger = (server: string) => {
  const line = (level: string) => (message: string, details?: unknown) =>
    note(
      `${server} log`,
      `${level} ${message}${details === undefined ? '' : ` ${inspect(details, { depth: Infinity, showHidden: true })}`}`,
    );
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
};

/** Reads a whole body (JSON or SSE) into what was seen. */
async function record(where: string, response: Response): Promise<{ status: number; text: string; json?: any }> {
  const text = await response.text();
  note(`${where} (${response.status})`, `${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${text}`);
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    // SSE or empty
  }
  return { status: response.status, text, json };
}

/** An SSE body read event by event; each raw chunk goes into what was seen. */
function events(where: string, response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    async next(): Promise<any | undefined> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          note(`${where} SSE event`, block);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data) return JSON.parse(data);
          continue;
        }
        const { done, value } = await reader.read();
        if (done) return undefined;
        buffer += value;
      }
    },
    cancel: () => reader.cancel(),
  };
}

let redis: RunningRedis;
let upstash: UpstashServer;
let otherUpstash: UpstashServer;
const consoleSpies: ReturnType<typeof vi.spyOn>[] = [];

beforeAll(async () => {
  redis = await startRedis({ password: SECRET.redisPassword });
  upstash = await startUpstashServer(redis.url, { token: SECRET.upstash });
  otherUpstash = await startUpstashServer(redis.url, { token: 'another-token-entirely' });
  // Lines the framework writes without a logger (a start failure) land on the console.
  for (const method of ['error', 'warn', 'log', 'info', 'debug'] as const)
    consoleSpies.push(vi.spyOn(console, method).mockImplementation((...args: unknown[]) => note(`console.${method}`, format(...args))));
});

afterAll(async () => {
  for (const spy of consoleSpies) spy.mockRestore();
  await upstash?.close();
  await otherUpstash?.close();
  await redis?.stop();
});

const tcpConfig = (): FrontMcpConfigInput =>
  legacyDesk({
    redis: { provider: 'redis', host: redis.host, port: redis.port, password: SECRET.redisPassword },
    auth: { secret: SECRET.jwt },
    elicitation: { enabled: true, persistent: { storage: { type: 'redis' }, inboxLinks: 'off' } },
    http: { path: '/mcp', auth: { people: 'loopback-token' } },
    logger: capturingLogger('tcp'),
  });
const tcpEnv = { NODE_ENV: 'production', VAULT_SECRET: SECRET.vault, MCP_SESSION_SECRET: SECRET.session };

const httpConfig = (token = SECRET.upstash, url = upstash.url): FrontMcpConfigInput =>
  legacyDesk({
    info: { name: 'help-desk-http', version: '1.0.0' },
    elicitation: { enabled: true, redis: { provider: 'upstash', url, token } },
    logger: capturingLogger('upstash'),
  });
const httpEnv = { VAULT_SECRET: SECRET.vault, MCP_ELICITATION_SECRET: SECRET.elicitation };

type Send = (request: Request) => Promise<Response>;

const post = (body: unknown, headers: Record<string, string>) =>
  rawPost(typeof body === 'string' ? body : JSON.stringify(body), { accept: 'application/json, text/event-stream', ...headers });

/** 2026-07-28: a round asked and answered, a tampered state, names that are Object.prototype's, bad JSON, bad tokens. */
async function modernScript(label: string, send: Send, auth: Record<string, string>): Promise<void> {
  const h = (extra: Record<string, string> = {}) => ({ headers: { ...auth, ...extra } });
  expect((await record(`${label} tools/list`, await send(mcpRequest('tools/list', {}, h())))).json.result.tools.length).toBeGreaterThan(0);
  const first = await record(
    `${label} round 1`,
    await send(mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' } }, h())),
  );
  expect(first.json.result.resultType).toBe('input_required');
  const state = first.json.result.requestState as string;
  const inputResponses = { 'elicitation-1': { action: 'accept', content: { confirm: true } } };
  const done = await record(
    `${label} round 2`,
    await send(mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' }, inputResponses, requestState: state }, h())),
  );
  expect(done.json.result.structuredContent).toMatchObject({ closed: true });
  const tampered = `${state.slice(0, -4)}AAAA`;
  await record(
    `${label} tampered`,
    await send(mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' }, inputResponses, requestState: tampered }, h())),
  );
  await record(
    `${label} foreign state`,
    await send(mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' }, requestState: 'x.y.z' }, h())),
  );

  for (const method of [
    'constructor',
    '__proto__',
    'toString',
    'valueOf',
    'hasOwnProperty',
    '__defineGetter__',
    'prototype',
    'tools/call/constructor',
  ]) {
    await record(`${label} method ${method}`, await send(mcpRequest(method, {}, h())));
    // The same name without the Mcp-Method header, and as a tool, prompt and resource name.
    await record(
      `${label} method ${method} (no header)`,
      await send(post({ jsonrpc: '2.0', id: 7, method, params: { _meta: meta() } }, { 'mcp-protocol-version': MODERN, ...auth })),
    );
    await record(`${label} tool ${method}`, await send(mcpRequest('tools/call', { name: method, arguments: {} }, h())));
    await record(`${label} prompt ${method}`, await send(mcpRequest('prompts/get', { name: method }, h())));
    await record(`${label} resource ${method}`, await send(mcpRequest('resources/read', { uri: method }, h())));
  }
  const fuzz = [
    '{"jsonrpc":"2.0",',
    'null',
    '[]',
    '[{"jsonrpc":"2.0","id":1,"method":"constructor"}]',
    '{"jsonrpc":"2.0","id":{"__proto__":{"x":1}},"method":"tools/list"}',
    JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { _meta: { ...meta(), constructor: { prototype: 1 } }, name: 'close_ticket', arguments: { __proto__: { id: 1 } } },
    }),
    JSON.stringify({
      jsonrpc: '2.0',
      id: 10,
      method: 'tools/call',
      params: {
        _meta: meta(),
        name: 'close_ticket',
        arguments: { id: 'T-2' },
        inputResponses: { constructor: {}, toString: 1 },
        requestState: 1,
      },
    }),
    '\u0000\u0001garbage',
  ];
  for (const [i, body] of fuzz.entries())
    await record(`${label} fuzz ${i}`, await send(post(body, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', ...auth })));
}

/** 2025-11-25: initialize, a call that asks with elicitation/create and gets its answer, bad names and wrong session ids. */
async function legacyScript(label: string, send: Send, auth: Record<string, string>): Promise<void> {
  const init = await send(
    post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: LEGACY, capabilities: { elicitation: {} }, clientInfo: { name: 'canary', version: '1' } },
      },
      auth,
    ),
  );
  const session = init.headers.get('mcp-session-id')!;
  expect((await record(`${label} initialize`, init)).status).toBe(200);
  const inSession = (body: unknown) => post(body, { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY, ...auth });
  await record(`${label} initialized`, await send(inSession({ jsonrpc: '2.0', method: 'notifications/initialized' })));

  const call = events(
    `${label} call`,
    await send(inSession({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'close_ticket', arguments: { id: 'T-9' } } })),
  );
  const question = await call.next();
  expect(question).toMatchObject({ method: 'elicitation/create' });
  await record(
    `${label} answer`,
    await send(inSession({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { confirm: true } } })),
  );
  const final = await call.next();
  expect(final.result.structuredContent).toMatchObject({ closed: true, id: 'T-9' });
  await call.cancel();

  for (const method of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']) {
    await record(`${label} method ${method}`, await send(inSession({ jsonrpc: '2.0', id: 3, method, params: {} })));
    await record(
      `${label} tool ${method}`,
      await send(inSession({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: method, arguments: {} } })),
    );
    // An answer to a request id the server never sent, named like Object.prototype's members.
    await record(`${label} answer ${method}`, await send(inSession({ jsonrpc: '2.0', id: method, result: { action: 'accept' } })));
  }
  await record(
    `${label} bad JSON`,
    await send(post('{"jsonrpc":', { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY, ...auth })),
  );
  for (const id of ['no-such-session-0123456789abcdef', 'constructor', '__proto__', 'toString', `${session}x`, 'bad id!'])
    await record(
      `${label} session ${id}`,
      await send(post({ jsonrpc: '2.0', id: 5, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': LEGACY, ...auth })),
    );
  await record(
    `${label} GET wrong session`,
    await send(
      new Request('http://127.0.0.1/mcp', {
        method: 'GET',
        headers: { accept: 'text/event-stream', 'mcp-session-id': 'constructor', ...auth },
      }),
    ),
  );
  await record(
    `${label} DELETE`,
    await send(new Request('http://127.0.0.1/mcp', { method: 'DELETE', headers: { 'mcp-session-id': session, ...auth } })),
  );
}

describe('secret canaries', () => {
  it('Redis over TCP with requirepass, an HS256 secret and the session and vault secrets: nothing leaks on either era', async () => {
    const before = seen.length;
    const handler = createFetchHandler(tcpConfig());
    const send: Send = (request) => handler.fetch(request, tcpEnv);
    const good = { authorization: await bearer('nour', SECRET.jwt) };
    await modernScript('tcp 2026-07-28', send, good);
    await legacyScript('tcp 2025-11-25', send, good);

    const forged = `Bearer ${await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('mallory').sign(new TextEncoder().encode('not-the-secret-but-long-enough-1234'))}`;
    for (const authorization of ['Bearer wrong', forged, `Bearer ${SECRET.jwt}`, 'Basic dXNlcjpwYXNz', ''])
      expect(
        (
          await record(
            `tcp bad bearer ${authorization.slice(0, 12)}`,
            await send(mcpRequest('tools/list', {}, { headers: { authorization } })),
          )
        ).status,
      ).toBe(401);
    for (const path of ['/_frontmcp/questions', '/_frontmcp/questions/constructor/answer', '/_frontmcp/sign-in', '/_frontmcp/__proto__'])
      await record(
        `tcp inbox ${path}`,
        await send(
          new Request(`http://127.0.0.1${path}`, {
            method: path.endsWith('answer') || path.endsWith('sign-in') ? 'POST' : 'GET',
            headers: { 'content-type': 'application/json', cookie: 'parley_inbox=constructor' },
            body: path.endsWith('answer') || path.endsWith('sign-in') ? '{"code":"toString","token":"__proto__"}' : undefined,
          }),
        ),
      );

    expect(seen.some((s) => s.where.startsWith('tcp 2026-07-28 method constructor'))).toBe(true);
    expect(leaksIn(seen.slice(before))).toEqual([]);
  });

  it('Redis over HTTP with an Upstash token and the elicitation secret: nothing leaks on either era', async () => {
    const before = seen.length;
    const handler = createFetchHandler(httpConfig());
    const send: Send = (request) => handler.fetch(request, httpEnv);
    await modernScript('upstash 2026-07-28', send, {});
    await legacyScript('upstash 2025-11-25', send, {});
    expect(upstash.log.some((line) => line.startsWith('/subscribe'))).toBe(true); // the answer went through Redis over HTTP
    expect(leaksIn(seen.slice(before))).toEqual([]);
  });

  it('startups that fail (a wrong Redis password, a token the REST server refuses) log why, and no secret', async () => {
    const before = seen.length;
    const wrongUrl = `redis://:${encodeURIComponent(SECRET.wrongRedisPassword)}@127.0.0.1:${redis.port}`;
    const failing: [string, FrontMcpConfigInput, Record<string, unknown>][] = [
      ['REDIS_URL', legacyDesk({ logger: capturingLogger('wrong REDIS_URL') }), { ...tcpEnv, REDIS_URL: wrongUrl }],
      ['config redis URL', legacyDesk({ redis: wrongUrl, logger: capturingLogger('wrong redis URL') }), tcpEnv],
      [
        'config redis',
        legacyDesk({
          redis: { provider: 'redis', host: '127.0.0.1', port: redis.port, password: SECRET.wrongRedisPassword },
          logger: capturingLogger('wrong redis'),
        }),
        tcpEnv,
      ],
      ['upstash token', httpConfig(SECRET.upstash, otherUpstash.url), httpEnv],
    ];
    for (const [label, config, env] of failing) {
      const handler = createFetchHandler(config);
      const started = await record(`start with ${label}`, await handler.fetch(mcpRequest('tools/list'), env));
      expect(started.status).toBe(503);
      expect(started.json).toEqual({ error: 'SERVER_START_FAILED', message: 'The server failed to start; see its log.' });
    }
    const logged = seen.slice(before).filter((s) => s.where.startsWith('console') || s.where.includes(' log'));
    expect(logged.filter((s) => s.text.includes('Server failed to start')).length).toBe(failing.length);
    expect(logged.some((s) => /WRONGPASS|NOAUTH|invalid password|username-password/i.test(s.text))).toBe(true);
    expect(logged.some((s) => s.text.includes(`redis://***@127.0.0.1:${redis.port}`))).toBe(true);
    expect(leaksIn(seen.slice(before))).toEqual([]);
  });

  it('JSON.stringify and util.inspect of a built server show no secret', async () => {
    for (const [label, config, env] of [
      ['tcp', tcpConfig(), tcpEnv],
      ['upstash', httpConfig(), httpEnv],
    ] as const) {
      const server = await buildServer(config, env);
      const questions = server.questions as QuestionService | undefined; // the full service behind the engine's view
      try {
        expect(server.elicitationStore?.secret).toBe(label === 'tcp' ? SECRET.session : SECRET.elicitation); // still there for the code that needs it
        expect(server.env).toBe(env);
        const views = [
          { where: `${label} JSON.stringify(server)`, text: JSON.stringify(server) },
          { where: `${label} inspect(server)`, text: inspect(server, { depth: Infinity, showHidden: true, getters: true }) },
          {
            where: `${label} inspect(store)`,
            text: inspect(server.elicitationStore, { depth: Infinity, showHidden: true, getters: true }),
          },
          { where: `${label} JSON.stringify(store)`, text: JSON.stringify(server.elicitationStore?.backend) ?? '' },
          { where: `${label} JSON.stringify(config)`, text: JSON.stringify(server.config) },
          { where: `${label} inspect(questions)`, text: inspect(server.questions, { depth: Infinity, showHidden: true, getters: true }) },
        ];
        expect(views[0]!.text).toContain('close_ticket'); // the server really was serialized
        expect(leaksIn(views)).toEqual([]);
        const startupToken = questions?.people?.startupToken;
        if (label === 'tcp') {
          expect(startupToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
          for (const view of views) expect(view.text).not.toContain(startupToken);
        }
      } finally {
        questions?.people?.unregister();
        await server.elicitationStore?.backend.close();
        await questions?.store.backend.close();
      }
    }
  });
});
