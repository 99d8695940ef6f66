// The bare Worker the cold-start table measures Parley's beside (bench/cold-start.ts): Hono and zod, no MCP framework.
// It checks the JSON-RPC envelope and a tool's arguments with zod and lists one tool with its input as JSON Schema,
// which is the least an MCP server written by hand on these two does at startup and on its first request.
import { Hono } from 'hono';
import * as z from 'zod'; // the namespace, so the bundle leaves out what it does not use (zod's translations)

const Args = z.object({ name: z.string().describe('Who to greet') });
const Message = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number()]),
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
});
const TOOLS = [{ name: 'greet', description: 'Greets by name', inputSchema: z.toJSONSchema(Args) }];

const app = new Hono();
app.post('/mcp', async (c) => {
  const message = Message.parse(await c.req.json());
  if (message.method === 'tools/list') return c.json({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', tools: TOOLS } });
  const args = Args.parse(message.params?.arguments);
  return c.json({
    jsonrpc: '2.0',
    id: message.id,
    result: { resultType: 'complete', content: [{ type: 'text', text: `Hello, ${args.name}!` }] },
  });
});

export default app;
