// Vercel's mcp-handler (2.4, on the official SDK v2): createMcpHandler's Web handler, on Node through @hono/node-server
// (the README mounts it in a framework's route; this is the same Fetch handler under Hono's Node server).
// Its round is the SDK's: inputRequired with a requestState signed by createRequestStateCodec.
import { serve } from '@hono/node-server';
import { acceptedContent, createRequestStateCodec, inputRequired } from '@modelcontextprotocol/server';
import { createMcpHandler } from 'mcp-handler';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { ROUND_TOOL, SIMPLE_TOOL, STATE_SECRET, announce, exitOnSignal, greeting, roundDone, roundQuestion } from '../servers/fixture';

const codec = createRequestStateCodec<{ id: string }>({ key: STATE_SECRET, bind: (ctx) => `${ctx.mcpReq.method}\0${ROUND_TOOL}` });
const Confirm = z.object({ confirm: z.boolean() });

const handler = createMcpHandler(
  (server) => {
    server.registerTool(SIMPLE_TOOL, { description: 'Greets someone.', inputSchema: z.object({ name: z.string() }) }, async ({ name }) => ({
      content: [{ type: 'text', text: greeting(name) }],
    }));
    server.registerTool(ROUND_TOOL, { description: 'Confirms an order after asking.', inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
      const state = ctx.mcpReq.requestState<{ id: string }>();
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', Confirm);
      if (answer?.confirm && typeof state === 'object' && state?.id === id) return { content: [{ type: 'text', text: roundDone(id) }] };
      return inputRequired({
        inputRequests: { confirm: inputRequired.elicit({ message: roundQuestion(id), requestedSchema: Confirm }) },
        requestState: await codec.mint({ id }, ctx),
      });
    });
  },
  { serverInfo: { name: 'bench', version: '1.0.0' }, requestState: { verify: codec.verify } },
);

const server = serve({ fetch: (request) => handler(request), port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => announce(info.port));
exitOnSignal(() => new Promise<void>((done) => server.close(() => done())));
