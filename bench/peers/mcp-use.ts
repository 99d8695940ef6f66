// mcp-use's server (2.5, on the official SDK v2): MCPServer with server.tool and server.listen, as its README shows.
// Its round is the SDK's (mcp-use re-exports inputRequired and createRequestStateCodec). mcp-use asks for Node >= 22.22.2.
import { MCPServer, acceptedContent, createRequestStateCodec, inputRequired } from 'mcp-use';
import { z } from 'zod';
import { ROUND_TOOL, SIMPLE_TOOL, STATE_SECRET, announce, exitOnSignal, greeting, roundDone, roundQuestion } from '../servers/fixture';

const codec = createRequestStateCodec<{ id: string }>({ key: STATE_SECRET, bind: () => `tools/call\0${ROUND_TOOL}` });
const Confirm = z.object({ confirm: z.boolean() });

const server = new MCPServer({ name: 'bench', version: '1.0.0', requestState: { verify: codec.verify } });
server.tool({ name: SIMPLE_TOOL, description: 'Greets someone.', inputSchema: z.object({ name: z.string() }) }, async ({ name }) => ({
  content: [{ type: 'text', text: greeting(name) }],
}));
server.tool({ name: ROUND_TOOL, description: 'Confirms an order after asking.', inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
  const state = ctx.requestState<{ id: string }>();
  const answer = acceptedContent(ctx.inputResponses, 'confirm', Confirm);
  if (answer?.confirm && typeof state === 'object' && state?.id === id) return { content: [{ type: 'text', text: roundDone(id) }] };
  return inputRequired({
    inputRequests: { confirm: inputRequired.elicit({ message: roundQuestion(id), requestedSchema: Confirm }) },
    requestState: await codec.mint({ id }, ctx as never),
  });
});

const { port } = await server.listen(0, { host: '127.0.0.1' });
exitOnSignal(() => server.close());
announce(port);
