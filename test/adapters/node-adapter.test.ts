// parley-mcp/node reads POST bodies from the socket itself: the limit, decoding and a tool's signal must behave as through a Fetch Request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, FrontMcp, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { request as httpRequest } from 'node:http';
import { listenFetch } from '../../src/adapters/node-listen';
import { plainResponse } from '../../src/adapters/node-response';
import { meta, read } from '../helpers/requests';

let heard: { aborted: boolean } | undefined;

@Tool({ name: 'echo', inputSchema: { text: z.string() } })
class Echo extends ToolContext {
  execute({ text }: { text: string }) {
    return text;
  }
}

@Tool({ name: 'wait_for_abort' })
class WaitForAbort extends ToolContext {
  async execute() {
    heard = { aborted: false };
    await new Promise((resolve) => this.signal.addEventListener('abort', resolve));
    heard.aborted = this.signal.aborted;
    return 'aborted';
  }
}

@App({ id: 'node', tools: [Echo, WaitForAbort] })
class NodeApp {}

@FrontMcp({ info: { name: 'node-adapter', version: '1.0.0' }, apps: [NodeApp], http: { maxBodyBytes: 2_000 }, logging: { level: 'error' } })
class Server {}

let server: RunningServer;
beforeAll(async () => {
  server = await serve(Server, { port: 0 });
});
afterAll(() => server.close());

const headers = (name: string) => ({
  'content-type': 'application/json',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': name,
});
const callBody = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: meta(), name, arguments: args } });

/** A body sent in pieces with no Content-Length, split where the caller says. */
function chunked(bytes: Uint8Array, at: number[]): ReadableStream<Uint8Array> {
  const cuts = [0, ...at, bytes.length];
  return new ReadableStream({
    start(controller) {
      for (let i = 1; i < cuts.length; i++) controller.enqueue(bytes.slice(cuts[i - 1], cuts[i]));
      controller.close();
    },
  });
}

describe('parley-mcp/node reading the body itself', () => {
  it('decodes UTF-8 split across chunks, and drops a leading BOM as Request.text() does', async () => {
    const text = 'Grüße, 東京 🎉';
    const bytes = new TextEncoder().encode(`\uFEFF${callBody('echo', { text })}`);
    const split = bytes.indexOf(0xe6) + 1; // inside the first byte sequence of 東
    const response = await fetch(server.url, {
      method: 'POST',
      headers: headers('echo'),
      body: chunked(bytes, [1, split]),
      duplex: 'half',
    } as RequestInit);
    const { status, body } = await read(response);
    expect(status).toBe(200);
    expect(body.result.content).toEqual([{ type: 'text', text }]);
  });

  it('answers 413 with a JSON-RPC error for a body over the limit, declared or streamed', async () => {
    const big = callBody('echo', { text: 'x'.repeat(5_000) });
    const declared = await read(await fetch(server.url, { method: 'POST', headers: headers('echo'), body: big }));
    expect(declared).toMatchObject({ status: 413, body: { error: { code: -32600 } } });
    const bytes = new TextEncoder().encode(big);
    const streamed = await fetch(server.url, {
      method: 'POST',
      headers: headers('echo'),
      body: chunked(bytes, [1000, 2500]),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await streamed.json()).error.message).toContain('limit 2000 bytes');
    // The server goes on serving after refusing one.
    const after = await read(
      await fetch(server.url, { method: 'POST', headers: headers('echo'), body: callBody('echo', { text: 'still here' }) }),
    );
    expect(after.body.result.content[0].text).toBe('still here');
  });

  it('answers 413 to a declared length over the limit before the body arrives', async () => {
    // The client declares a million bytes, sends a few and waits: the answer must not wait for the rest.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(server.url, { method: 'POST', headers: { ...headers('echo'), 'content-length': 1_000_000 } }, (res) => {
        resolve(res.statusCode!);
        res.resume();
        req.destroy();
      });
      req.on('error', reject);
      req.write(callBody('echo', { text: 'x' }).slice(0, 50));
    });
    expect(status).toBe(413);
  });

  it("fires a tool's signal when the client goes away mid-call", async () => {
    heard = undefined;
    const leave = new AbortController();
    const pending = fetch(server.url, {
      method: 'POST',
      headers: headers('wait_for_abort'),
      body: callBody('wait_for_abort', {}),
      signal: leave.signal,
    }).catch((e: Error) => e);
    await expect.poll(() => heard).toBeDefined();
    expect(heard!.aborted).toBe(false);
    leave.abort();
    expect(await pending).toBeInstanceOf(Error);
    await expect.poll(() => heard!.aborted).toBe(true);
  });
});

/** A raw HTTP/1.1 exchange, for what fetch() will not send (a Host header that names no host). */
function rawPost(url: string, host: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', setHost: false, headers: { host, ...headers('echo'), 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk)).on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('parley-mcp/node answering without Fetch objects', () => {
  it('refuses a Host header that cannot name a URL with 400, and goes on serving', async () => {
    const refused = await rawPost(server.url, 'a b/c', callBody('echo', { text: 'x' }));
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).message).toContain('Host header');
    const after = await rawPost(server.url, `127.0.0.1:${server.port}`, callBody('echo', { text: 'fine' }));
    expect(JSON.parse(after.text).result.content[0].text).toBe('fine');
  });

  it('gives whoever reads a plain response a real Response: status, headers, body, clone', async () => {
    const response = plainResponse('{"ok":true}', 201, { 'content-type': 'application/json', 'x-one': '1' });
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.ok, response.headers.get('x-one')]).toEqual([201, true, '1']);
    const copy = response.clone();
    expect(await response.json()).toEqual({ ok: true });
    expect(await copy.text()).toBe('{"ok":true}');
    expect(response.bodyUsed).toBe(true);
    const empty = plainResponse(null, 202, {});
    expect([empty.status, empty.body, await empty.text()]).toEqual([202, null, '']);
  });

  it('answers many calls that arrive together, each with its own answer (through fetch and through node:http)', async () => {
    const texts = Array.from({ length: 64 }, (_, i) => `call ${i} ${'é'.repeat(i)}`);
    const answers = await Promise.all(
      texts.map(
        async (text) =>
          (await read(await fetch(server.url, { method: 'POST', headers: headers('echo'), body: callBody('echo', { text }) }))).body,
      ),
    );
    expect(answers.map((a) => a.result.content[0].text)).toEqual(texts);
    const inTurn = await Promise.all(texts.map((text) => rawPost(server.url, `127.0.0.1:${server.port}`, callBody('echo', { text }))));
    expect(inTurn.map((r) => [r.status, JSON.parse(r.text).result.content[0].text])).toEqual(texts.map((t) => [200, t]));
  });

  it('answers 500 only to the request whose answer Node refuses to write, and writes the others of the same turn', async () => {
    const logged: unknown[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => void logged.push(args[0]);
    const answer = async (request: Request) => {
      const path = new URL(request.url).pathname;
      return plainResponse(JSON.stringify({ path }), 200, path === '/bad' ? { 'x-bad': 'a\nb' } : {}); // a newline: Node refuses the header
    };
    const listening = await listenFetch(answer, { host: '127.0.0.1', port: 0 });
    try {
      const url = `http://${listening.address}`;
      const answers = await Promise.all(
        ['/good', '/bad', '/other'].map(async (path) => {
          const response = await fetch(url + path);
          return [response.status, await response.json()];
        }),
      );
      expect(answers).toEqual([
        [200, { path: '/good' }],
        [500, { error: 'internal_error', message: 'The server could not answer this request; see its log.' }],
        [200, { path: '/other' }],
      ]);
      expect(logged).toEqual(['[parley] ERROR Could not answer a request:']);
    } finally {
      console.error = error;
      await listening.close();
    }
  });

  it('writes a turn of more answers than one batch holds, each to its own request', async () => {
    // Every request waits until all 40 have arrived, so the 40 answers are made in one turn: more than a batch of 32.
    let arrived = 0;
    let release!: () => void;
    const all = new Promise<void>((resolve) => (release = resolve));
    const answer = async (request: Request) => {
      if (++arrived === 40) release();
      await all;
      return plainResponse(JSON.stringify({ path: new URL(request.url).pathname }), 200, {});
    };
    const listening = await listenFetch(answer, { host: '127.0.0.1', port: 0 });
    try {
      const paths = Array.from({ length: 40 }, (_, i) => `/r${i}`);
      const answers = await Promise.all(paths.map(async (path) => (await fetch(`http://${listening.address}${path}`)).json()));
      expect(answers).toEqual(paths.map((path) => ({ path })));
    } finally {
      await listening.close();
    }
  });
});
