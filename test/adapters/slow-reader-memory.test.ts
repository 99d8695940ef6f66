// A client that stops reading its event stream costs the server a bounded amount of memory on parley-mcp/node: the
// server stops pulling events it cannot send, and a source that keeps pushing past the bound loses its connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server as HttpServer, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { App, FrontMcp, Tool, ToolContext } from 'parley-mcp';
import { createNodeHandler, type NodeHandler } from 'parley-mcp/node';
import { MAX_UNREAD_BYTES } from '../../src/adapters/node-backpressure';
import { answerIncoming } from '../../src/adapters/node-listen';
import { streamedResponse } from '../../src/adapters/node-stream';
import { LEGACY, openLegacySession } from '../helpers/legacy';
import { meta } from '../helpers/requests';

const EVENTS = 12_000; // about 13 MB of events: more than loopback's socket buffers take
const NOTE = 'x'.repeat(1_000);

/** The response of the request that carries x-slow-reader, as the server holds it, and the most it has held unread. */
const watched: { outgoing?: ServerResponse; most: number; sent: number; aborted: boolean } = { most: 0, sent: 0, aborted: false };
const measure = () => (watched.most = Math.max(watched.most, watched.outgoing?.writableLength ?? 0));

@Tool({ name: 'chatty' })
class Chatty extends ToolContext {
  async execute() {
    for (watched.sent = 0; watched.sent < EVENTS && !this.signal.aborted; ) {
      this.progress(++watched.sent, EVENTS, NOTE);
      if (watched.sent % 50 === 0) {
        measure();
        await new Promise((resolve) => setImmediate(resolve)); // the socket gets its turn
      }
    }
    measure();
    watched.aborted = this.signal.aborted;
    return 'done';
  }
}

@App({ id: 'slow', tools: [Chatty] })
class SlowApp {}

@FrontMcp({ info: { name: 'slow-reader', version: '1.0.0' }, apps: [SlowApp], logging: { level: 'error' } })
class Server {}

let mcp: NodeHandler;
let http: HttpServer;
let base: string;
beforeAll(async () => {
  mcp = await createNodeHandler(Server);
  http = createServer((req, res) => {
    if (req.headers['x-slow-reader'] !== undefined) watched.outgoing = res;
    mcp(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  await mcp.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

/** A POST on a raw socket that reads the response's head and then nothing more, until `rest()`. */
function slowPost(
  headers: Record<string, string>,
  body: string,
  server: HttpServer = http,
): Promise<{ socket: Socket; rest: () => Promise<string> }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      const head = Object.entries({
        host: `127.0.0.1:${port}`,
        'content-length': String(Buffer.byteLength(body)),
        'x-slow-reader': '1',
        ...headers,
      })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`POST /mcp HTTP/1.1\r\n${head}\r\n${body}`);
    });
    socket.once('error', reject);
    socket.once('data', () => {
      socket.pause(); // the first bytes (the head) came: from now on this client reads nothing
      const chunks: Buffer[] = [];
      const rest = () =>
        new Promise<string>((done) => {
          socket.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            const tail = Buffer.concat(chunks.slice(-2)).subarray(-5).toString('latin1');
            if (tail === '0\r\n\r\n') done(Buffer.concat(chunks).toString('latin1'));
          });
          socket.resume();
        });
      resolve({ socket, rest });
    });
  });
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('a client that does not read its event stream', () => {
  it('costs at most MAX_UNREAD_BYTES of a 2026-07-28 call that pushes events: then the call is closed as if it left', async () => {
    Object.assign(watched, { most: 0, sent: 0, aborted: false, outgoing: undefined });
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { _meta: { ...meta(), progressToken: 'p' }, name: 'chatty' },
    });
    const { socket } = await slowPost(
      {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'chatty',
      },
      body,
    );
    await until(() => watched.outgoing?.writableEnded === true || watched.outgoing?.destroyed === true);
    socket.destroy();
    await until(() => watched.sent === EVENTS || watched.aborted);
    // Unthrottled, the server holds every event the socket buffers did not take: megabytes.
    expect(watched.most).toBeLessThanOrEqual(MAX_UNREAD_BYTES + 64 * 1024);
    expect(watched.aborted).toBe(true);
    expect(watched.sent).toBeLessThan(EVENTS);
  });

  it("holds an older client's call stream back while the socket is full, and sends the rest once it reads again", async () => {
    Object.assign(watched, { most: 0, sent: 0, aborted: false, outgoing: undefined });
    const session = await openLegacySession((request) => fetch(request), {}, {}, base);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { _meta: { progressToken: 'p' }, name: 'chatty' } });
    const { socket, rest } = await slowPost(
      {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': LEGACY,
      },
      body,
    );
    await until(() => watched.sent === EVENTS);
    // The events wait in the session's stream (which keeps the last MAX_KEPT_EVENTS), not in the socket's buffer.
    expect(watched.most).toBeLessThanOrEqual(512 * 1024);
    expect(watched.aborted).toBe(false);
    const text = await rest();
    expect(text).toContain('"id":7,"result"');
    socket.destroy();
  });

  describe('on a Response someone read as one', () => {
    let plain: HttpServer;
    let answer: () => Response;
    beforeAll(async () => {
      plain = createServer((req, res) => {
        watched.outgoing = res;
        answerIncoming(async () => answer(), req, res, { address: '', fast: () => false });
      });
      await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      plain.closeAllConnections();
      await new Promise((resolve) => plain.close(resolve));
    });
    const chunk = new TextEncoder().encode(`data: ${NOTE}\n\n`);

    it('reads its body no faster than the socket takes it', async () => {
      Object.assign(watched, { most: 0, sent: 0, aborted: false, outgoing: undefined });
      answer = () =>
        new Response(
          new ReadableStream({
            pull: async (controller) => {
              measure();
              if (++watched.sent > EVENTS) return controller.close();
              controller.enqueue(chunk);
              if (watched.sent % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
            },
          }),
        );
      const { socket, rest } = await slowPost({}, '', plain);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(watched.sent).toBeLessThan(EVENTS);
      expect(watched.most).toBeLessThanOrEqual(128 * 1024);
      expect(await rest()).toContain(NOTE);
      expect(watched.sent).toBe(EVENTS + 1);
      socket.destroy();
    });

    it('errors the stream of a source that pushes past MAX_UNREAD_BYTES, and cancels the source', async () => {
      Object.assign(watched, { most: 0, sent: 0, aborted: false, outgoing: undefined });
      answer = () => {
        const response = streamedResponse({
          start: async (controller) => {
            try {
              for (; watched.sent < EVENTS && !watched.aborted; watched.sent++) {
                controller.enqueue(chunk);
                if (watched.sent % 50 === 0) {
                  measure();
                  await new Promise((resolve) => setImmediate(resolve));
                }
              }
            } catch {
              // enqueue throws once the stream is closed
            }
          },
          cancel: () => void (watched.aborted = true),
        });
        void response.headers; // read as a Response: the real one goes out
        return response;
      };
      const { socket } = await slowPost({}, '', plain);
      await until(() => watched.aborted || watched.sent === EVENTS);
      expect(watched.aborted).toBe(true);
      expect(watched.sent).toBeLessThan(EVENTS);
      socket.destroy();
    });
  });
});
