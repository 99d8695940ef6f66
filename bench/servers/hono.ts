// The ceiling: a bare Hono handler that parses the JSON-RPC body and returns the simple tool's result, nothing else.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { announce, exitOnSignal, simpleResult } from './fixture';

const app = new Hono();
app.post('/mcp', async (c) => {
  const message = (await c.req.json()) as { id: number; params: { arguments: { name: string } } };
  return c.json({ jsonrpc: '2.0', id: message.id, result: simpleResult(message.params.arguments.name) });
});

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => announce(info.port));
exitOnSignal(() => new Promise<void>((done) => server.close(() => done())));
