// The official SDK (@modelcontextprotocol/server 2.4.0): createMcpHandler serving the same two tools, on @hono/node-server.
import { serve } from '@hono/node-server';
import { McpServer, acceptedContent, createMcpHandler, createRequestStateCodec, inputRequired } from '@modelcontextprotocol/server';
import type { AddressInfo } from 'node:net';
import * as z from 'zod';
import { ROUND_TOOL, SIMPLE_TOOL, STATE_SECRET, announce, exitOnSignal, greeting, roundDone, roundQuestion } from './fixture';

// Signed state, as Parley's is: the SDK's own HMAC codec, bound to the tool.
const codec = createRequestStateCodec<{ id: string }>({ key: STATE_SECRET, bind: (ctx) => `${ctx.mcpReq.method}\0${ROUND_TOOL}` });
const Confirm = z.object({ confirm: z.boolean() });

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'bench', version: '1.0.0' }, { requestState: { verify: codec.verify } });
  server.registerTool(SIMPLE_TOOL, { description: 'Greets someone.', inputSchema: z.object({ name: z.string() }) }, ({ name }) => ({
    content: [{ type: 'text', text: greeting(name) }],
  }));
  server.registerTool(
    ROUND_TOOL,
    { description: 'Confirms an order after asking.', inputSchema: z.object({ id: z.string() }) },
    async ({ id }, ctx) => {
      const state = ctx.mcpReq.requestState<{ id: string }>();
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', Confirm);
      if (answer?.confirm && typeof state === 'object' && state?.id === id) return { content: [{ type: 'text', text: roundDone(id) }] };
      return inputRequired({
        inputRequests: { confirm: inputRequired.elicit({ message: roundQuestion(id), requestedSchema: Confirm }) },
        requestState: await codec.mint({ id }, ctx),
      });
    },
  );
  return server;
});

const server = serve({ fetch: (request) => handler.fetch(request), port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
  announce(info.port),
);
exitOnSignal(async () => {
  await handler.close();
  await new Promise<void>((done) => server.close(() => done()));
});
