// tmcp (1.20) with its HTTP transport, served by node:http through @remix-run/node-fetch-server, as its README shows.
// Its round: `server.elicitation()` answers a 2026-07-28 call input_required and replays the tool on the retry with the
// answer (a tool must be marked `replayable`); the default requestState is plain JSON (tmcp signs only with a `requestStateCodec`, which its docs don't show).
import { createRequestListener } from '@remix-run/node-fetch-server';
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { HttpTransport } from '@tmcp/transport-http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from 'tmcp';
import { z } from 'zod';
import { ROUND_TOOL, SIMPLE_TOOL, announce, exitOnSignal, greeting, roundDone, roundQuestion } from '../servers/fixture';

const server = new McpServer({ name: 'bench', version: '1.0.0', description: 'bench' }, { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {} } });
server.tool({ name: SIMPLE_TOOL, description: 'Greets someone.', schema: z.object({ name: z.string() }) }, async ({ name }) => ({
  content: [{ type: 'text', text: greeting(name) }],
}));
// replayable: tmcp's own safety check; the retry runs the tool again from the top, which this tool allows.
server.tool({ name: ROUND_TOOL, description: 'Confirms an order after asking.', schema: z.object({ id: z.string() }), replayable: true }, async ({ id }) => {
  const answer = await server.elicitation(roundQuestion(id), z.object({ confirm: z.boolean() }), { key: 'confirm' });
  const text = answer.action === 'accept' && answer.content?.confirm ? roundDone(id) : `Order ${id} kept`;
  return { content: [{ type: 'text', text }] };
});

const transport = new HttpTransport(server, { path: '/mcp' });
const http = createServer(
  createRequestListener(async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 })),
);
http.listen(0, '127.0.0.1', () => announce((http.address() as AddressInfo).port));
exitOnSignal(() => new Promise<void>((done) => http.close(() => done())));
