// The `mcp` a test gets: tools.list/call, onElicitation and raw requests, over Parley's client.
import { createFetchHandler, type FetchHandler, type ServerInput } from '../app';
import { McpClient, McpClientError, type ElicitationHandler, type RawRequest, type RpcResponse, type Tool } from '../client';
import { TestTask } from './test-task';
import { ToolResult } from './tool-result';

export interface ConnectOptions {
  /** Default '2026-07-28'; a legacy revision such as '2025-11-25' runs the initialize handshake. */
  protocolVersion?: string;
  /** Default `{ elicitation: { form: {}, url: {} } }`. */
  capabilities?: Record<string, unknown>;
  /** Extra headers on every request, e.g. `authorization`. */
  headers?: Record<string, string>;
  /** Whether 2026-07-28 requests declare the tasks extension, so tools may run as tasks. Default true. */
  tasks?: boolean;
}

export const DEFAULT_CAPABILITIES = { elicitation: { form: {}, url: {} } };

export class McpTestClient {
  constructor(readonly client: McpClient) {}

  readonly tools = {
    list: async (): Promise<Tool[]> => (await this.client.listTools()).tools,
    call: async (name: string, args: Record<string, unknown> = {}): Promise<ToolResult> =>
      new ToolResult(await this.client.callTool({ name, arguments: args })),
  };

  readonly tasks = {
    /** Calls a tool the server runs as a task and returns the task, not polled; throws when the call ran without one. */
    start: async (name: string, args: Record<string, unknown> = {}): Promise<TestTask> => {
      const started = await this.client.startTool({ name, arguments: args });
      if ('result' in started)
        throw new McpClientError(`${name} answered without a task (declare tasks, and give the tool execution.taskSupport)`);
      return new TestTask(this.client, started.task);
    },
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
    // The server is in the process or next to it: a test need not wait the interval a server suggests for a network.
    tasks: options.tasks === false ? false : { minPollMs: 10, maxPollMs: 50 },
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
