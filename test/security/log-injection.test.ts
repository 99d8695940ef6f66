// A hostile client writing into the server's log. Every value from outside that reaches a log line (the method, a tool,
// prompt or resource name, a tool's error text, a JSON-RPC id, a cancel's requestId, the Origin, Host and Mcp-* headers,
// a session id) carries a forged `[parley] ERROR` line, escape sequences, C1 controls (NEL, 8-bit CSI), a line
// separator and a bidi override. The log, read from a real server process's stderr, keeps one line per entry, shows
// each value escaped, and holds no raw control character.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { helloModule, tempProject } from '../fixtures/dev-project';
import { LEGACY } from '../helpers/legacy';
import { meta, MODERN } from '../helpers/requests';

const FORGED = '[parley] ERROR forged';
const PAYLOAD = `x\r\n${FORGED}\u001b[31m\u0085${FORGED}\u009b31m\u2028${FORGED}\u202e`;
/** The payload as the log must write it. */
const ESCAPED = 'x\\x0d\\x0a[parley] ERROR forged\\x1b[31m\\x85[parley] ERROR forged\\x9b31m\\u2028[parley] ERROR forged\\u202e';
/** Node refuses CR, LF and ESC in a header, not C1 controls: what a header can carry. */
const HEADER = `evil\u0085${FORGED}\u009b31m`;
const HEADER_ESCAPED = 'evil\\x85[parley] ERROR forged\\x9b31m';
/** Anything a terminal or a log viewer acts on; the log's own line feeds are the only control allowed. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028-\u202e\u2066-\u2069]/u;

const REPO = resolve(__dirname, '../..');

interface Served {
  child: ChildProcessWithoutNullStreams;
  log: () => string;
}

/** The fixture server as its own process; its stderr is the log under test. */
function start(mode: 'http' | 'stdio', env: Record<string, string> = {}): Served {
  const child = spawn(process.execPath, ['--conditions=parley-source', '--import', 'tsx', 'test/security/log-server.ts', mode], {
    env: { ...process.env, ...env },
  });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  return { child, log: () => log };
}

/** The fixture over HTTP, once it listens. */
async function startHttp(env: Record<string, string> = {}): Promise<Served & { url: URL }> {
  const served = start('http', env);
  let stdout = '';
  served.child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  await vi.waitFor(() => expect(stdout).toMatch(/listening \S+/), { timeout: 20_000 });
  return { ...served, url: new URL(/listening (\S+)/.exec(stdout)![1]!) };
}

/** No line of the log is forged and none holds a raw control character. */
function expectClean(log: string): void {
  const lines = log.split('\n');
  expect(lines.filter((line) => line.startsWith(FORGED))).toEqual([]);
  expect(lines.filter((line) => RAW_CONTROL.test(line))).toEqual([]);
}

/** A POST as an attacker sends it, byte for byte: the head in latin1, so a C1 control in a header is one byte on the wire. */
const postTo = (url: URL, body: unknown, headers: Record<string, string> = {}) =>
  new Promise<number>((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const all: Record<string, string> = {
      host: url.host,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'content-length': String(data.length),
      connection: 'close',
      ...headers,
    };
    const head = `POST ${url.pathname} HTTP/1.1\r\n${Object.entries(all)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
    let answer = '';
    const socket = connect(Number(url.port), url.hostname, () => socket.end(Buffer.concat([Buffer.from(head, 'latin1'), data])));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0)));
  });
const base64Header = (text: string) => `=?base64?${Buffer.from(text).toString('base64')}?=`;

describe('log injection over HTTP (text log and access log)', () => {
  let served: Served;
  let url: URL;

  beforeAll(async () => {
    ({ url, ...served } = await startHttp());
  });
  afterAll(() => void served.child.kill());

  const post = (body: unknown, headers: Record<string, string> = {}) => postTo(url, body, headers);
  const modern = (method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) =>
    post(
      { jsonrpc: '2.0', id: 1, method, params: { _meta: meta(), ...params } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...headers },
    );

  it('writes every value a client sends escaped, on its own line, with no raw control character', async () => {
    await modern(PAYLOAD, {}, { 'mcp-method': 'x' });
    await modern('tools/call', { name: PAYLOAD, arguments: {} }, { 'mcp-name': base64Header(PAYLOAD) });
    await modern('prompts/get', { name: PAYLOAD }, { 'mcp-name': base64Header(PAYLOAD) });
    await modern('resources/read', { uri: PAYLOAD }, { 'mcp-name': base64Header(PAYLOAD) });
    await modern('tools/call', { name: 'fail_with', arguments: { text: PAYLOAD, thrown: false } }, { 'mcp-name': 'fail_with' });
    await modern('tools/call', { name: 'fail_with', arguments: { text: PAYLOAD, thrown: true } }, { 'mcp-name': 'fail_with' });
    // A header that disagrees with the body is quoted in the error, which the access log shows.
    await modern('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' } }, { 'mcp-name': base64Header(PAYLOAD) });
    await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: PAYLOAD } }, { 'mcp-protocol-version': MODERN });
    // An older client's session id, and an answer to a question nobody asked, under the attacker's id.
    await post(
      { jsonrpc: '2.0', id: PAYLOAD, method: 'tools/list', params: {} },
      { 'mcp-session-id': HEADER, 'mcp-protocol-version': LEGACY },
    );
    await post({ jsonrpc: '2.0', id: PAYLOAD, result: { action: 'accept' } }, { 'mcp-session-id': HEADER, 'mcp-protocol-version': LEGACY });
    expect(await modern('tools/list', {}, { origin: `http://${HEADER}` })).toBe(403);
    // Node's server answers such a Host 400 before Parley sees it; it stays in the matrix should that change.
    expect(await modern('tools/list', {}, { host: HEADER })).toBeLessThan(500);

    const wanted = [
      `${ESCAPED} → error`,
      `tools/call ${ESCAPED} → error`,
      `prompts/get ${ESCAPED} → error`,
      `resources/read ${ESCAPED} → error`,
      `tools/call fail_with → tool error TOOL_ERROR: ${ESCAPED}`,
      `[parley] ERROR Tool "fail_with" failed`,
      `Error: ${ESCAPED}`,
      `tools/call close_ticket → error -32020: Header mismatch: Mcp-Name header value '${ESCAPED}'`,
      `cancelled request ${ESCAPED}`,
      `Refused a request: Origin "http://${HEADER_ESCAPED}" is not allowed`,
    ];
    await vi.waitFor(() => expect(wanted.filter((w) => !served.log().includes(w))).toEqual([]), { timeout: 10_000 });
    expectClean(served.log());
  });
});

describe("log injection into the JSON log (logging: { format: 'json' })", () => {
  let served: Served;
  let url: URL;

  beforeAll(async () => {
    ({ url, ...served } = await startHttp({ PARLEY_TEST_LOG_FORMAT: 'json' }));
  });
  afterAll(() => void served.child.kill());

  it("writes one JSON object a line, the client's values exact once parsed and escaped on the line, secrets redacted", async () => {
    const send = (id: unknown, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) =>
      postTo(
        url,
        { jsonrpc: '2.0', id, method, params: { _meta: meta(), ...params } },
        { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...headers },
      );
    const thrown = `${PAYLOAD} redis://admin:hunter2-secret@cache:6379`;
    await send(PAYLOAD, 'tools/call', { name: PAYLOAD, arguments: {} }, { 'mcp-name': base64Header(PAYLOAD) });
    await send(41, 'tools/call', { name: 'fail_with', arguments: { text: thrown, thrown: true } }, { 'mcp-name': 'fail_with' });
    await postTo(
      url,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: PAYLOAD } },
      { 'mcp-protocol-version': MODERN },
    );
    expect(await send(42, 'tools/list', {}, { origin: `http://${HEADER}` })).toBe(403);

    const entries = () =>
      served
        .log()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, any>);
    await vi.waitFor(() => expect(entries().filter((e) => /^\d\d:\d\d:\d\d /.test(e.msg))).toHaveLength(4), { timeout: 10_000 });
    const all = entries();
    for (const entry of all) {
      expect(Object.keys(entry).slice(0, 3)).toEqual(['time', 'level', 'msg']);
      expect(new Date(entry.time).toISOString()).toBe(entry.time);
    }
    // The access log: the line as text, and the request's own id.
    const unknown = all.find((e) => e.requestId === PAYLOAD)!;
    expect(unknown).toMatchObject({ level: 'info', method: 'tools/call', status: 400 });
    expect(unknown.msg).toContain(`tools/call ${PAYLOAD} → error`);
    expect(all.find((e) => e.requestId === 41)).toMatchObject({ method: 'tools/call', status: 200 });
    // The tool's error: its message exact (redacted), its stack whole.
    const failed = all.find((e) => e.level === 'error')!;
    expect(failed.msg).toMatch(/^Tool "fail_with" failed \(error id [0-9a-f-]{36}\)$/);
    expect(failed.error.name).toBe('Error');
    expect(failed.error.message).toBe(`${PAYLOAD} redis://***@cache:6379`);
    expect(failed.error.stack).toMatch(/\n {4}at /);
    expect(all.find((e) => e.msg.includes('cancelled request'))!.msg).toContain(`cancelled request ${PAYLOAD}`);
    expect(all.find((e) => e.level === 'warn')!.msg).toBe(`Refused a request: Origin "http://${HEADER}" is not allowed`);
    // On the line itself, nothing raw: JSON escapes C0, the log escapes the rest as \\uHHHH.
    expect(served.log()).not.toContain('hunter2-secret');
    expect(served.log()).toContain('\\u0085[parley] ERROR forged\\u009b31m\\u2028');
    expectClean(served.log());
  });
});

describe('log injection over stdio', () => {
  let served: Served;
  let stdout = '';
  const send = (message: unknown) => served.child.stdin.write(`${JSON.stringify(message)}\n`);

  beforeAll(async () => {
    served = start('stdio');
    served.child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    await vi.waitFor(() => expect(served.log()).toContain('over stdio'), { timeout: 20_000 });
  });
  afterAll(() => void served.child.kill());

  it('writes ids, names and a thrown error text escaped, with no raw control character', async () => {
    send({ jsonrpc: '2.0', id: PAYLOAD, result: {} });
    send({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { _meta: meta(), name: 'fail_with', arguments: { text: PAYLOAD, thrown: true } },
    });
    await vi.waitFor(
      () => {
        expect(served.log()).toContain(`Ignoring a JSON-RPC response (id ${ESCAPED})`);
        expect(served.log()).toContain(`Error: ${ESCAPED}`);
        expect(stdout).toContain('"id":7');
      },
      { timeout: 10_000 },
    );
    expectClean(served.log());
  });
});

describe("log injection into parley dev's log", () => {
  let dir: string;
  let dev: ChildProcessWithoutNullStreams;
  let log = '';

  beforeAll(() => {
    dir = tempProject(REPO, helloModule('hi'));
    dev = spawn(process.execPath, [join(REPO, 'bin/parley.js'), 'dev', 'server.ts', '--port', '0'], { cwd: dir });
    dev.stderr.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  });
  afterAll(() => {
    dev.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a tool name and a cancel requestId escaped, on their own lines', async () => {
    await vi.waitFor(() => expect(log).toMatch(/at http:\/\/127\.0\.0\.1:\d+\/mcp/), { timeout: 30_000 });
    const url = new URL(/at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(log)![1]!);
    const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': base64Header(PAYLOAD) };
    await postTo(url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: meta(), name: PAYLOAD, arguments: {} } }, headers);
    await postTo(
      url,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: PAYLOAD } },
      { 'mcp-protocol-version': MODERN },
    );
    await vi.waitFor(
      () => {
        expect(log).toContain(`tools/call ${ESCAPED} → error`);
        expect(log).toContain(`cancelled request ${ESCAPED}`);
      },
      { timeout: 10_000 },
    );
    expectClean(log);
  });
});
