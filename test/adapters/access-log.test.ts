// serve(config, { accessLog: true }): one line a request on the log, in parley dev's format; nothing without it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App, Tool, ToolContext, z, type FrontMcpConfigInput } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { exchangeLine } from '../../src/adapters/exchange-log';
import { mcpRequest } from '../helpers/requests';

@Tool({ name: 'confirm', inputSchema: {} })
class Confirm extends ToolContext {
  async execute() {
    const answer = await this.elicit('Sure?', z.object({ ok: z.boolean() }));
    return answer.status === 'accept' && answer.content?.ok ? 'done' : 'no';
  }
}

@App({ id: 'log', tools: [Confirm] })
class LogApp {}

const info: string[] = [];
const logger = { debug() {}, info: (m: string) => void info.push(m), warn() {}, error() {} };
const config: FrontMcpConfigInput = { info: { name: 'logged', version: '1' }, apps: [LogApp], elicitation: { enabled: true }, logger };

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  info.length = 0;
});

/** Sends a hand-built request to the running server (the fast POST path of parley-mcp/node). */
async function send(request: Request): Promise<any> {
  const url = new URL(new URL(request.url).pathname, running!.url);
  const response = await fetch(url, {
    method: request.method,
    headers: request.headers,
    body: request.method === 'POST' ? await request.text() : undefined,
  });
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

const accessLines = () => info.filter((m) => /^\d\d:\d\d:\d\d /.test(m));

describe('the access log', () => {
  it('logs each request with method, tool, result type, round, status and time', async () => {
    running = await serve(config, { port: 0, quiet: true, accessLog: true });
    await send(mcpRequest('tools/list'));
    const first = await send(mcpRequest('tools/call', { name: 'confirm', arguments: {} }));
    expect(first.result.resultType).toBe('input_required');
    const done = await send(
      mcpRequest('tools/call', {
        name: 'confirm',
        arguments: {},
        inputResponses: { 'elicitation-1': { action: 'accept', content: { ok: true } } },
        requestState: first.result.requestState,
      }),
    );
    expect(done.result.content[0].text).toBe('done');
    await send(new Request('http://x/mcp', { method: 'GET', headers: { accept: 'application/json' } }));
    await vi.waitFor(() => expect(accessLines()).toHaveLength(4));
    const [list, asked, answered, get] = accessLines().map((l) => l.slice(9));
    expect(list).toMatch(/^tools\/list → ok \(HTTP 200, \d+ ms\)$/);
    expect(asked).toMatch(/^tools\/call confirm → input_required \(asks elicitation-1\) \(round 1, HTTP 200, \d+ ms\)$/);
    expect(answered).toMatch(/^tools\/call confirm → ok \(round 2, HTTP 200, \d+ ms\)$/);
    expect(get).toMatch(/^GET \/mcp → HTTP 405 \(\d+ ms\)$/);
  });

  it('is off by default', async () => {
    running = await serve(config, { port: 0, quiet: true });
    await send(mcpRequest('tools/list'));
    await new Promise((r) => setTimeout(r, 50));
    expect(accessLines()).toEqual([]);
  });

  it('the banner says it is on', async () => {
    running = await serve(config, { port: 0, accessLog: true });
    expect(info.join('\n')).toMatch(/access log +on/);
  });
});

describe('exchangeLine, the one formatter', () => {
  it('counts rounds from the answers a request carries, and names error codes', () => {
    const request = { method: 'tools/call', params: { name: 'deploy', inputResponses: { 'elicitation-2': {} } } };
    expect(
      exchangeLine(request, { result: { resultType: 'input_required', inputRequests: { 'elicitation-3': {} } } }, { ms: 7, status: 200 }),
    ).toBe('tools/call deploy → input_required (asks elicitation-3) (round 3, HTTP 200, 7 ms)');
    expect(exchangeLine({ method: 'tools/call', params: { name: 'x' } }, { error: { code: -32602, message: 'bad' } }, { ms: 1 })).toBe(
      'tools/call x → error -32602: bad (1 ms)',
    );
  });
});
