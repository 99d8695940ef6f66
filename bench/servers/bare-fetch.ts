// The ceiling on Bun and Deno: a bare fetch handler under the runtime's own server that parses the JSON-RPC body and
// returns the simple tool's result, nothing else (row 8).
import { announce, simpleResult } from './fixture';
import { serveFetch } from './runtime-serve';

announce(
  await serveFetch(async (request) => {
    const message = (await request.json()) as { id: number; params: { arguments: { name: string } } };
    return Response.json({
      jsonrpc: '2.0',
      id: message.id,
      result: simpleResult(message.params.arguments.name),
    });
  }),
);
