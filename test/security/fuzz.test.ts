// Parley's own seeded fuzz of request bodies (methods, params, headers) on the 2026-07-28 and the 2025-11-25 paths,
// tasks/* and listens for tasks included (aimed at a live task too): no 5xx, no request that hangs, every JSON answer
// a JSON-RPC message, and a valid call and a valid task work afterwards.
// The seed is fixed, so a failure names a case that replays: FUZZ_SEED=<n> picks another run.
import { describe, expect, it, vi } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { LEGACY, openLegacySession } from '../helpers/legacy';
import { meta, read } from '../helpers/requests';
import { config, INTERNAL, PROTOTYPE_NAMES } from './fixture';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_414);
const CASES = 300;
const BOUND_MS = 2_000;

/** mulberry32: a tiny deterministic PRNG, enough to pick cases (not for anything secret). */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
type Random = ReturnType<typeof prng>;

const METHODS = [
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'completion/complete',
  'server/discover',
  'ping',
  'initialize',
  'logging/setLevel',
  'resources/subscribe',
  'notifications/cancelled',
  'notifications/initialized',
  'sampling/createMessage',
  'elicitation/create',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
  'tasks/result',
  'tasks/list',
  'subscriptions/listen',
  'tools/',
  '/',
  'TOOLS/LIST',
  'tools/list ',
  '',
  ...PROTOTYPE_NAMES,
];
const KEYS = [
  'name',
  'arguments',
  'uri',
  'ref',
  'argument',
  'inputResponses',
  'requestState',
  'level',
  'cursor',
  'requestId',
  'elicitId',
  'action',
  'content',
  'type',
  'protocolVersion',
  'capabilities',
  'elicitation',
  'elicitation-1',
  'id',
  'key',
  'field',
  'taskId',
  'task',
  'notifications',
  'taskIds',
  'go',
  ...PROTOTYPE_NAMES,
];
const NAMES = [
  'close_ticket',
  'mirrored',
  'ask_field',
  'ask_keyed',
  'sendElicitationResult',
  'greet',
  'desk://status',
  'notes://ada',
  'notes://{owner}',
  'ref/prompt',
  'ref/resource',
  'T-1',
  'accept',
  'debug',
  'parked_task',
  'tsk_AAAAAAAAAAAAAAAAAAAAAAAA',
];
const TASKS = 'io.modelcontextprotocol/tasks';
/** The live task a 2026-07-28 run aims at (set before the run): its id is picked like any name. */
const live: { taskId?: string } = {};
const ASCII = ' !#$%&()*+,-./0123456789:;<=>?@ABCXYZ[]^_`abcxyz{|}~';

function text(r: Random): string {
  const kind = r.int(6);
  if (kind === 0) return r.pick(NAMES);
  if (kind === 1) return r.pick(PROTOTYPE_NAMES);
  if (kind === 2) return '';
  if (kind === 3) return 'x'.repeat(r.int(3000));
  if (kind === 4)
    return String.fromCodePoint(
      ...Array.from({ length: 1 + r.int(8) }, () => r.pick([0x0, 0x7f, 0xe9, 0x202e, 0xfeff, 0x1f600, 0xd800 + r.int(2)])),
    );
  return Array.from({ length: r.int(12) }, () => r.pick([...ASCII])).join('');
}

function value(r: Random, depth: number): unknown {
  const kind = r.int(depth > 3 ? 5 : 8);
  if (kind === 0) return null;
  if (kind === 1) return r.chance(0.5);
  if (kind === 2) return r.pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, r.int(100)]);
  if (kind === 3 || kind === 4) return text(r);
  if (kind === 5) return Array.from({ length: r.int(4) }, () => value(r, depth + 1));
  return object(r, depth + 1);
}

function object(r: Random, depth: number): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  for (let i = r.int(5); i > 0; i--) entries.push([r.chance(0.8) ? r.pick(KEYS) : text(r), value(r, depth)]);
  return Object.fromEntries(entries);
}

/** Params that get past the first checks often enough to reach the handlers. */
function params(r: Random, method: string, modern: boolean): Record<string, unknown> {
  const p = object(r, 1);
  if (r.chance(0.6)) p.name = r.pick(NAMES);
  if (r.chance(0.3)) p.uri = r.pick(NAMES);
  if (r.chance(0.4)) p.arguments = r.chance(0.8) ? object(r, 2) : value(r, 2);
  if (method === 'completion/complete' && r.chance(0.7)) {
    p.ref = r.chance(0.5)
      ? { type: 'ref/prompt', name: r.pick(['greet', ...PROTOTYPE_NAMES]) }
      : { type: 'ref/resource', uri: r.pick(['notes://{owner}', 'x']) };
    p.argument = { name: r.pick(['who', 'owner', ...PROTOTYPE_NAMES]), value: text(r) };
  }
  if (r.chance(0.3))
    p.inputResponses = Object.fromEntries([
      [
        r.pick(['elicitation-1', ...PROTOTYPE_NAMES]),
        r.chance(0.7) ? { action: r.pick(['accept', 'decline', 'x']), content: object(r, 3) } : value(r, 3),
      ],
    ]);
  if (r.chance(0.2)) p.requestState = r.chance(0.5) ? text(r) : `${text(r)}.${'A'.repeat(43)}`;
  if (method.startsWith('tasks/') && r.chance(0.8)) p.taskId = r.chance(0.5) && live.taskId ? live.taskId : value(r, 2);
  if (method === 'tasks/update' && r.chance(0.7))
    p.inputResponses = r.chance(0.7) ? Object.fromEntries([[r.pick(['go', ...PROTOTYPE_NAMES]), value(r, 2)]]) : value(r, 2);
  if (method === 'subscriptions/listen' && r.chance(0.8))
    p.notifications = r.chance(0.7) ? { taskIds: r.chance(0.7) ? [live.taskId ?? '', text(r)] : value(r, 2) } : value(r, 2);
  if (method === 'tools/call' && r.chance(0.2)) p.task = value(r, 2);
  const tasks = r.chance(0.5) ? { extensions: { [TASKS]: {} } } : {};
  if (modern && r.chance(0.85))
    p._meta = r.chance(0.85) ? { ...meta(r.chance(0.7) ? { elicitation: {}, ...tasks } : object(r, 3)), ...object(r, 3) } : value(r, 2);
  return p;
}

/** One random body: mostly JSON-RPC requests, sometimes notifications, responses, batches or not JSON at all. */
function body(r: Random, modern: boolean): { text: string; method?: string; name?: string } {
  const roll = r.int(20);
  if (roll === 0)
    return {
      text: r.pick(['', '{', 'null', '[]', '"x"', '{"jsonrpc":"2.0"', '\u0000', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}{}']),
    };
  if (roll === 1) return { text: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]) };
  if (roll === 2)
    return {
      text: JSON.stringify({
        jsonrpc: '2.0',
        id: r.pick([text(r), 1, null]),
        ...(r.chance(0.5) ? { result: object(r, 1) } : { error: object(r, 1) }),
      }),
    };
  const method = r.chance(0.9) ? r.pick(METHODS) : text(r);
  const p = params(r, method, modern);
  const id = r.chance(0.1) ? undefined : r.chance(0.85) ? r.pick([r.int(1e6), text(r), 1.5]) : r.pick([null, true, {}, [], -0]);
  const message = {
    jsonrpc: r.chance(0.95) ? '2.0' : r.pick(['1.0', 2, null]),
    ...(id === undefined ? {} : { id }),
    method,
    ...(r.chance(0.95) ? { params: p } : { params: value(r, 1) }),
  };
  const name =
    typeof p.taskId === 'string' ? p.taskId : typeof p.name === 'string' ? p.name : typeof p.uri === 'string' ? p.uri : undefined;
  return { text: JSON.stringify(message), method, name };
}

/** A header value a Request can carry: visible ASCII as it is, else its =?base64?…?= form, sometimes malformed. */
function header(r: Random, wanted: string | undefined): string {
  if (wanted !== undefined && r.chance(0.8)) {
    if (/^[\x20-\x7e]*$/.test(wanted)) return wanted;
    return `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(wanted)))}?=`;
  }
  return r.pick(['', '=?base64?!!?=', '=?base64?QUJD?=', '2026-07-28', LEGACY, 'tools/call', 'close_ticket', ...PROTOTYPE_NAMES]);
}

function headers(r: Random, b: { method?: string; name?: string }, modern: boolean, session?: string): Record<string, string> {
  const h: Record<string, string> = {};
  if (r.chance(0.95)) h['content-type'] = r.pick(['application/json', 'application/json', 'text/plain', 'application/json; charset=utf-8']);
  if (r.chance(0.9)) h.accept = r.pick(['application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*']);
  if (modern) {
    if (r.chance(0.85)) h['mcp-protocol-version'] = r.chance(0.85) ? '2026-07-28' : header(r, undefined);
    if (r.chance(0.85)) h['mcp-method'] = header(r, b.method);
    if (r.chance(0.7)) h['mcp-name'] = header(r, b.name);
    if (r.chance(0.3)) h[`mcp-param-p${r.int(12)}`] = header(r, undefined);
  } else {
    if (session && r.chance(0.9)) h['mcp-session-id'] = r.chance(0.9) ? session : header(r, undefined);
    if (r.chance(0.8)) h['mcp-protocol-version'] = r.chance(0.85) ? LEGACY : header(r, undefined);
  }
  return h;
}

const bounded = <T>(promise: Promise<T>, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${BOUND_MS} ms: ${what}`)), BOUND_MS)),
  ]);

/** Sends one case and checks its answer; an event stream is read only to its first event, then closed. */
async function check(
  handler: (request: Request) => Promise<Response>,
  text: string,
  h: Record<string, string>,
  label: string,
): Promise<void> {
  const response = await bounded(handler(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: h, body: text })), label);
  expect(response.status, label).toBeLessThan(500);
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const reader = response.body!.getReader();
    await bounded(reader.read(), label);
    await reader.cancel();
    return;
  }
  const answer = await bounded(response.text(), label);
  for (const name of INTERNAL) expect(answer, label).not.toContain(name);
  if (answer === '') return expect([202, 204], label).toContain(response.status);
  const message = JSON.parse(answer);
  expect(message.jsonrpc, label).toBe('2.0');
  expect('result' in message || 'error' in message, label).toBe(true);
  if (message.error) expect(typeof message.error.code, label).toBe('number');
}

/** A 2026-07-28 tasks/* request (or, without a task id, the tools/call that starts parked_task), read to its answer. */
const taskRequest = (handler: (request: Request) => Promise<Response>, method: string, taskId?: string, extra = {}) => {
  const params = taskId ? { taskId, ...extra } : { name: 'parked_task', arguments: {} };
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    'mcp-name': taskId ?? 'parked_task',
  };
  const _meta = meta({ elicitation: {}, extensions: { [TASKS]: {} } });
  return handler(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 'task', method, params: { ...params, _meta } }),
    }),
  ).then(read);
};

async function startTask(handler: (request: Request) => Promise<Response>): Promise<string> {
  const { body } = await taskRequest(handler, 'tools/call');
  expect(body.result.resultType).toBe('task');
  return body.result.taskId;
}

describe(`the seeded fuzz (seed ${SEED})`, () => {
  it(`sends ${CASES} random 2026-07-28 requests without a 5xx or a hang, then serves a full round`, async () => {
    const handler = createFetchHandler(config);
    const r = prng(SEED);
    live.taskId = await startTask(handler);
    for (let i = 0; i < CASES; i++) {
      const b = body(r, true);
      await check(handler, b.text, headers(r, b, true), `2026 case ${i} (seed ${SEED}): ${b.text.slice(0, 300)}`);
    }
    const call = (extra: Record<string, unknown>) => {
      const params = { _meta: meta(), name: 'close_ticket', arguments: { id: 'T-1' }, ...extra };
      const h = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'close_ticket',
      };
      return handler(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: h,
          body: JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'tools/call', params }),
        }),
      ).then(read);
    };
    const first = await call({});
    const done = await call({
      requestState: first.body.result.requestState,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } },
    });
    expect(done.body.result.structuredContent).toEqual({ closed: true, id: 'T-1', note: '' });
    // A new task still runs its round: asked, answered, completed.
    const taskId = await startTask(handler);
    await vi.waitFor(async () => expect((await taskRequest(handler, 'tasks/get', taskId)).body.result.status).toBe('input_required'));
    const go = { go: { action: 'accept', content: { confirm: true } } };
    expect((await taskRequest(handler, 'tasks/update', taskId, { inputResponses: go })).body.result.resultType).toBe('complete');
    await vi.waitFor(async () => expect((await taskRequest(handler, 'tasks/get', taskId)).body.result.status).toBe('completed'));
  });

  it(`sends ${CASES} random 2025-11-25 requests in a session without a 5xx or a hang, then serves a full round`, async () => {
    const handler = createFetchHandler(config);
    const r = prng(SEED + 1);
    // A session that declared no elicitation: a question comes back at once as the fallback's pending result,
    // so no call waits on a stream for an answer the fuzz never sends.
    const session = await openLegacySession(handler, {});
    for (let i = 0; i < CASES; i++) {
      const b = body(r, false);
      await check(handler, b.text, headers(r, b, false, session), `2025-11-25 case ${i} (seed ${SEED + 1}): ${b.text.slice(0, 300)}`);
    }
    const post = (params: Record<string, unknown>) =>
      handler(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'mcp-session-id': session,
            'mcp-protocol-version': LEGACY,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'tools/call', params }),
        }),
      ).then(read);
    const asked = await post({ name: 'close_ticket', arguments: { id: 'T-2' } });
    const { elicitId } = asked.body.result._meta.elicitationPending;
    const done = await post({ name: 'sendElicitationResult', arguments: { elicitId, action: 'accept', content: { confirm: true } } });
    expect(done.body.result.structuredContent).toEqual({ closed: true, id: 'T-2', note: '' });
  });
});
