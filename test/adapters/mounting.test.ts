// Parley mounted in the apps teams already run: Express (with and without express.json()), Fastify through its raw
// request, Hono through createFetchHandler, and the AWS Lambda recipe (Hono's streamHandle) through a stand-in for a
// streaming function URL (test/helpers/lambda.ts: Lambda cannot run here). Each completes a question round with the official v2 client
// (2026-07-28) and the official v1 client (2025-11-25), then shuts down: new calls get 503, the app's server closes.
import type { AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { getConnInfo, streamHandle } from 'hono/aws-lambda';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { createNodeHandler } from 'parley-mcp/node';
import Server from '../../examples/help-desk/server';
import { functionUrlFetch, installAwsLambdaGlobal } from '../helpers/lambda';
import { LEGACY, legacyPost, request } from '../helpers/legacy';
import { mcpRequest } from '../helpers/requests';

/**
 * A mounted server: its MCP URL, a fetch the clients use (Hono's runs in-process), its two-step shutdown, and the
 * responses its HTTP server still has open (none for Hono).
 */
interface Mounted {
  url: string;
  fetch: typeof fetch;
  closeParley(): Promise<void>;
  closeApp(): Promise<void>;
  open(): number;
}

const urlOf = (server: HttpServer, path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
/** Closes the app's server; the clients' idle keep-alive sockets are dropped, as serve()'s close drops them. */
const closeHttp = (server: HttpServer) =>
  new Promise<void>((resolve, reject) => {
    server.close((e) => (e ? reject(e) : resolve()));
    server.closeAllConnections();
  });
/** Counts the responses a server has not finished or lost. */
function openResponses(server: HttpServer): () => number {
  let open = 0;
  server.on('request', (_req, res) => {
    open++;
    res.once('close', () => open--);
  });
  return () => open;
}

const APPS: Record<string, () => Promise<Mounted>> = {
  async 'Express, body parsed by express.json()'() {
    const mcp = await createNodeHandler(Server);
    const app = express();
    app.use(express.json());
    app.get('/health', (_req, res) => void res.send('ok')); // the app's own route beside it
    app.all('/mcp', mcp);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const open = openResponses(server);
    return { url: urlOf(server, '/mcp'), fetch, closeParley: () => mcp.close({ graceMs: 0 }), closeApp: () => closeHttp(server), open };
  },
  async 'Express router under a mount path, body read by Parley'() {
    const mcp = await createNodeHandler(Server);
    const app = express();
    const api = express.Router();
    api.all('/mcp', mcp);
    app.use('/api', api);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const open = openResponses(server);
    return { url: urlOf(server, '/api/mcp'), fetch, closeParley: () => mcp.close({ graceMs: 0 }), closeApp: () => closeHttp(server), open };
  },
  async 'Fastify, raw request and hijacked reply'() {
    const mcp = await createNodeHandler(Server);
    const app = Fastify({ forceCloseConnections: true });
    await app.register(async (scope) => {
      // Parley reads the body itself, within its limit: this scope's parsers leave the stream alone.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.all('/mcp', (request, reply) => {
        reply.hijack();
        mcp(request.raw, reply.raw);
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const open = openResponses(app.server);
    return { url: urlOf(app.server, '/mcp'), fetch, closeParley: () => mcp.close({ graceMs: 0 }), closeApp: () => app.close(), open };
  },
  async 'Hono, app.all with createFetchHandler'() {
    const handler = createFetchHandler(Server);
    const app = new Hono();
    app.all('/mcp', (c) => handler(c.req.raw));
    const inProcess = ((input: string | URL | Request, init?: RequestInit) => app.fetch(new Request(input, init))) as typeof fetch;
    return {
      url: 'http://127.0.0.1/mcp',
      fetch: inProcess,
      closeParley: () => handler.close({ graceMs: 0 }),
      closeApp: async () => {},
      open: () => 0,
    };
  },
  async "AWS Lambda function URL with response streaming (the docs' recipe)"() {
    installAwsLambdaGlobal(); // the Lambda runtime's global, which streamHandle calls when the module loads
    // docs/deployment.md, "AWS Lambda", as written there:
    const mcp = createFetchHandler(Server);
    const app = new Hono();
    app.all('/mcp', (c) => mcp(c.req.raw, { client: getConnInfo(c).remote.address }));
    const handler = streamHandle(app);
    return {
      url: 'https://abc123xyz.lambda-url.us-east-1.on.aws/mcp',
      fetch: functionUrlFetch(handler),
      closeParley: () => mcp.close({ graceMs: 0 }),
      closeApp: async () => {},
      open: () => 0,
    };
  },
};

const answer = { action: 'accept' as const, content: { confirm: true, note: 'done' } };
const closed = { closed: true, id: 'T-1', note: 'done' };

describe.each(Object.keys(APPS))('%s', (name) => {
  it('completes a question round on both eras, then shuts down cleanly', async () => {
    const app = await APPS[name]!();

    const modern = new Client(
      { name: 'mount-v2', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    modern.setRequestHandler('elicitation/create', async () => answer);
    await modern.connect(new StreamableHTTPClientTransport(new URL(app.url), { fetch: app.fetch }));
    expect((await modern.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } })).structuredContent).toEqual(closed);
    await modern.close();

    const legacy = new V1Client({ name: 'mount-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    legacy.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return answer;
    });
    await legacy.connect(new V1Transport(new URL(app.url), { fetch: app.fetch }));
    expect((await legacy.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } })).structuredContent).toEqual(closed);
    expect(asked).toEqual(['Close ticket T-1? The customer will be notified.']);
    await legacy.close();

    // Closed as serve() closes: a new session is refused with 503 (2026-07-28 calls hold no state to drain).
    await app.closeParley();
    const init = request('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'late', version: '1' } });
    const late = await app.fetch(legacyPost(init, undefined, {}, app.url));
    expect(late.status).toBe(503);
    expect((await late.json()).error.data).toMatchObject({ code: 'SHUTTING_DOWN' });
    expect(app.open()).toBe(0); // every stream (the v1 client's GET included) ended
    await app.closeApp();
  });
});

it('refuses a body over http.maxBodyBytes with 413, parsed by express.json() or read by Parley', async () => {
  const mcp = await createNodeHandler({ info: { name: 'small', version: '1.0.0' }, apps: [], http: { maxBodyBytes: 200 } });
  const app = express();
  app.all('/parsed', express.json(), mcp);
  app.all('/raw', mcp);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const big = { name: 'close_ticket', arguments: { note: 'x'.repeat(400) } };
  for (const path of ['/parsed', '/raw']) {
    const response = await fetch(mcpRequest('tools/call', big, { url: urlOf(server, path) }));
    expect(response.status).toBe(413);
  }
  await mcp.close({ graceMs: 0 });
  await closeHttp(server);
});
