import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { meta } from '../helpers/requests';

// The stdio server spoken to line by line, to see exactly what reaches stdout.
let child: ChildProcessWithoutNullStreams;
let stdout = '';
let stderr = '';
const exited = { code: undefined as number | null | undefined };

beforeAll(async () => {
  child = spawn(process.execPath, ['--conditions=parley-source', '--import', 'tsx', 'test/fixtures/stdio-server.ts']);
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.on('exit', (code) => (exited.code = code));
  await vi.waitFor(() => expect(stderr).toContain('over stdio'), { timeout: 15_000 });
});
afterAll(() => {
  if (exited.code === undefined) child.kill();
});

const lines = () => stdout.split('\n').filter((l) => l !== '');
const messages = () => lines().map((l) => JSON.parse(l) as { id?: unknown; result?: any; error?: any });
const reply = async (id: number) => {
  await expect.poll(() => messages().find((m) => m.id === id), { timeout: 10_000 }).toBeDefined();
  return messages().find((m) => m.id === id)!;
};
const send = (message: unknown) => child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
const call = (id: number, name: string, extra: Record<string, unknown> = {}) =>
  send({ jsonrpc: '2.0', id, method: 'tools/call', params: { _meta: meta(), name, arguments: {}, ...extra } });

describe('stdio on the wire', () => {
  it('writes only JSON-RPC to stdout, even when a tool writes to it', async () => {
    call(1, 'noisy');
    expect((await reply(1)).result.content).toEqual([{ type: 'text', text: 'said hello' }]);
    await expect.poll(() => stderr).toContain('a raw stdout write');
    expect(stderr).toContain('hello from console.log');
    expect(stderr).toContain("{ from: 'console.info' }");
    for (const line of lines()) expect(JSON.parse(line).jsonrpc).toBe('2.0');
  });

  it('answers bad input with JSON-RPC errors and keeps serving', async () => {
    send('not json');
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    send({ jsonrpc: '2.0', id: 3, method: 'no/such', params: { _meta: meta() } });
    // initialize inside a 2026-07-28 _meta envelope is a removed method, as on HTTP: it opens no session.
    send({ jsonrpc: '2.0', id: 31, method: 'initialize', params: { _meta: meta(), protocolVersion: '2025-11-25', capabilities: {} } });
    send({
      jsonrpc: '2.0',
      id: 4,
      method: 'initialize',
      params: { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    expect((await reply(2)).error.code).toBe(-32602);
    expect((await reply(3)).error.code).toBe(-32601);
    expect((await reply(31)).error.code).toBe(-32601);
    // An unknown version in initialize gets the newest legacy one back, and the process serves both eras from then on.
    expect((await reply(4)).result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'help-desk' } });
    send({ jsonrpc: '2.0', id: 41, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    expect((await reply(41)).error.code).toBe(-32600);
    send({ jsonrpc: '2.0', id: 42, method: 'ping' });
    expect((await reply(42)).result).toEqual({});
    expect(messages().some((m) => m.id === null && m.error?.code === -32700)).toBe(true);
    call(5, 'close_ticket', { arguments: { id: 'T-5' } });
    expect((await reply(5)).result.resultType).toBe('input_required');
  });

  it('fires the tool’s AbortSignal on notifications/cancelled and sends no answer for that request', async () => {
    call(6, 'wait_for_cancel');
    await expect.poll(() => stderr).toContain('waiting for a cancel');
    send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 6, reason: 'the user pressed stop' } });
    await expect.poll(() => stderr).toContain('tool saw abort: the user pressed stop');
    send({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: meta() } });
    await reply(7);
    expect(messages().filter((m) => m.id === 6)).toEqual([]);
  });

  it('exits when stdin closes', async () => {
    child.stdin.end();
    await expect.poll(() => exited.code, { timeout: 10_000 }).toBe(0);
  });
});
