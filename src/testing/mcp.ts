// The `mcp` a test gets: tools.list/call, onElicitation and raw requests, over Parley's client.
import { createFetchHandler, type FetchHandler, type ServerInput } from '../app';
import { McpClient, type ElicitationHandler, type RawRequest, type RpcResponse, type Tool } from '../client';
import { ToolResult } from './tool-result';

export interface ConnectOptions {
  /** Default '2026-07-28'; a legacy revision such as '2025-11-25' runs the initialize handshake. */
  protocolVersion?: string;
  /** Default `{ elicitation: { form: {}, url: {} } }`. */
  capabilities?: Record<string, unknown>;
  /** Extra headers on every request, e.g. `authorization`. */
  headers?: Record<string, string>;
}

export const DEFAULT_CAPABILITIES = { elicitation: { form: {}, url: {} } };

export class McpTestClient {
  constructor(readonly client: McpClient) {}

  readonly tools = {
    list: async (): Promise<Tool[]> => (await this.client.listTools()).tools,
    call: async (name: string, args: Record<string, unknown> = {}): Promise<ToolResult> =>
      new ToolResult(await this.client.callTool({ name, arguments: args })),
  };

  readonly raw = {
    /** Sends a JSON-RPC request, filling in the _meta envelope and MCP headers it leaves out, and returns the raw response. */
    request: (message: RawRequest): Promise<RpcResponse> => this.client.send(message),
  };

  /** Answers every elicitation. Without a handler the client declines; a handler that throws cancels. */
  onElicitation(handler: ElicitationHandler | undefined): void {
    this.client.onElicitation(handler);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

// One handler per server in a test file: building it once keeps each test fast.
const handlers = new WeakMap<object, FetchHandler>();

/**
 * Connects Parley's client to a server: in-process (a config or @FrontMcp class, through its fetch handler, no socket) or at a URL.
 * @example const mcp = await connectMcp(Server, { protocolVersion: '2025-11-25' });
 */
export async function connectMcp(server: ServerInput | string, options: ConnectOptions = {}): Promise<McpTestClient> {
  const common = {
    protocolVersion: options.protocolVersion,
    capabilities: options.capabilities ?? DEFAULT_CAPABILITIES,
    headers: options.headers,
    clientInfo: { name: 'parley-testing', version: '0.1.0' },
  };
  let client: McpClient;
  if (typeof server === 'string') client = new McpClient({ ...common, url: server });
  else {
    let handler = handlers.get(server);
    if (!handler) handlers.set(server, (handler = createFetchHandler(server)));
    const inProcess = handler;
    client = new McpClient({ ...common, url: 'http://localhost/mcp', fetch: (request) => inProcess(request) });
  }
  await client.connect();
  return new McpTestClient(client);
}
