// The official v1 SDK server (up to 2025-11-25) behind a fetch handler, one transport per session: a real legacy peer for client tests.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

export interface V1Handler {
  (request: Request): Promise<Response>;
  close(): Promise<void>;
}

export function v1Handler(build: (server: McpServer) => void): V1Handler {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const handler = (async (request: Request) => {
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const transport = sessions.get(id);
      return transport ? transport.handleRequest(request) : new Response('session not found', { status: 404 });
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
      onsessionclosed: (sid) => void sessions.delete(sid),
    });
    const server = new McpServer({ name: 'v1-peer', version: '1.0.0' });
    build(server);
    await server.connect(transport);
    return transport.handleRequest(request);
  }) as V1Handler;
  handler.close = async () => {
    await Promise.all([...sessions.values()].map((t) => t.close()));
    sessions.clear();
  };
  return handler;
}
