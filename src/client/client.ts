// McpClient: one MCP client for both eras, with elicitation answered from one registered handler.
import { LEGACY_VERSIONS, MODERN_VERSION, isLegacyVersion, isObject, type JsonRpcNotification } from '../protocol';
import type { Envelope } from './envelope';
import { McpClientError } from './errors';
import type { RpcResponse } from './exchange';
import { createHttpTransport } from './http-transport';
import { LegacySession } from './legacy';
import { ModernSession } from './modern';
import type { Session, SessionContext } from './session';
import { pollPace, TASKS_EXTENSION } from './task-follow';
import type { CallOptions, CallToolResult, ClientOptions, ClientTransport, ElicitationHandler, TaskState, Tool } from './types';

/** A JSON-RPC request as a caller writes it; jsonrpc and id may be left out. */
export interface RawRequest {
  jsonrpc?: string;
  id?: string | number;
  method: string;
  params?: Record<string, unknown>;
}

export function capabilitiesOf(options: ClientOptions): Record<string, unknown> {
  if (options.capabilities) return options.capabilities;
  const e = options.elicitation ?? { form: true };
  if (e === false) return {};
  return { elicitation: { ...(e.form !== false ? { form: {} } : {}), ...(e.url ? { url: {} } : {}) } };
}

/**
 * An MCP client over Streamable HTTP (or any ClientTransport), speaking 2026-07-28 by default.
 * @example
 * const client = new McpClient({ url: 'http://127.0.0.1:3000/mcp' });
 * client.onElicitation(async (params) => ({ action: 'accept', content: { confirm: true } }));
 * const result = await client.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } });
 */
export class McpClient {
  readonly capabilities: Record<string, unknown>;
  private readonly transport: ClientTransport;
  private readonly closing = new AbortController();
  private handler?: ElicitationHandler;
  private opening?: Promise<Session>;
  private ids = 0;

  constructor(readonly options: ClientOptions) {
    if (!options.transport && !options.url) throw new McpClientError('McpClient needs a url (or a transport)');
    this.transport = options.transport ?? createHttpTransport({ url: options.url!, fetch: options.fetch, headers: options.headers });
    this.capabilities = capabilitiesOf(options);
  }

  /** Registers the one handler that answers every elicitation, in both eras. Without one, the client declines. */
  onElicitation(handler: ElicitationHandler | undefined): void {
    this.handler = handler;
  }

  /** Opens the session (legacy revisions) or settles the revision ('auto'). Called by the first request if not before. */
  async connect(): Promise<void> {
    await this.session();
  }

  /** The revision in use, once connected. */
  async protocolVersion(): Promise<string> {
    return (await this.session()).protocolVersion;
  }

  /** Sends a request and returns its final result, answering input_required rounds on the way; a JSON-RPC error throws. */
  async request(method: string, params: Record<string, unknown> = {}, options: CallOptions = {}): Promise<Record<string, any>> {
    return (await this.session()).request(method, params, options);
  }

  /** Sends one request as written and returns the raw response: no rounds, errors returned rather than thrown. */
  async send(message: RawRequest, options: { signal?: AbortSignal } = {}): Promise<RpcResponse> {
    const session = await this.session();
    return session.send({ ...message, jsonrpc: '2.0', id: message.id ?? this.nextId(), params: message.params ?? {} }, options.signal);
  }

  async listTools(): Promise<{ tools: Tool[] }> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.request('tools/list', cursor ? { cursor } : {});
      tools.push(...((page.tools ?? []) as Tool[]));
      cursor = typeof page.nextCursor === 'string' && page.nextCursor ? page.nextCursor : undefined;
    } while (cursor);
    return { tools };
  }

  /** Calls a tool and returns its result; a call the server runs as a task is polled to its end (see CallOptions). */
  async callTool(call: { name: string; arguments?: Record<string, unknown> }, options: CallOptions = {}): Promise<CallToolResult> {
    return (await this.request('tools/call', { name: call.name, arguments: call.arguments ?? {} }, options)) as CallToolResult;
  }

  /**
   * Calls a tool and returns as soon as the server answers: `{ result }` when it ran as an ordinary call, `{ task }`
   * when it became a task (not polled: follow it with `request('tasks/get', { taskId })`, answer with tasks/update).
   * @example
   * const started = await client.startTool({ name: 'export_ledger', arguments: { year: 2025 } });
   * if ('task' in started) console.log(started.task.taskId, started.task.status);
   */
  async startTool(
    call: { name: string; arguments?: Record<string, unknown> },
    options: { signal?: AbortSignal } = {},
  ): Promise<{ result: CallToolResult } | { task: TaskState }> {
    const session = await this.session();
    const answer = await session.request(
      'tools/call',
      { name: call.name, arguments: call.arguments ?? {} },
      { ...options, task: 'return' },
    );
    return answer.resultType === 'task' ? { task: answer as TaskState } : { result: answer as CallToolResult };
  }

  async close(): Promise<void> {
    this.closing.abort(new McpClientError('The client closed'));
    const opening = this.opening;
    this.opening = undefined;
    const session = await opening?.catch(() => undefined);
    await session?.close();
  }

  /** The capabilities a 2026-07-28 request declares: the client's, with the tasks extension when tasks are on. */
  private modernCapabilities(): Record<string, unknown> {
    if (!this.options.tasks) return this.capabilities;
    const extensions = isObject(this.capabilities.extensions) ? this.capabilities.extensions : {};
    return { ...this.capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
  }

  private nextId(): number {
    return ++this.ids;
  }

  private session(): Promise<Session> {
    if (this.closing.signal.aborted) return Promise.reject(new McpClientError('The client is closed'));
    return (this.opening ??= this.open().catch((error: unknown) => {
      this.opening = undefined; // let the next call try again
      throw error;
    }));
  }

  private async open(): Promise<Session> {
    const ctx: SessionContext = {
      nextId: () => this.nextId(),
      handler: () => this.handler,
      maxRounds: this.options.maxRounds ?? 10,
      closed: this.closing.signal,
      signal: (given) => AbortSignal.any(given ? [given, this.closing.signal] : [this.closing.signal]),
      onNotification: this.options.onNotification as ((n: JsonRpcNotification) => void) | undefined,
      tasks: Boolean(this.options.tasks),
      pace: pollPace(typeof this.options.tasks === 'object' ? this.options.tasks : {}),
    };
    const clientInfo = this.options.clientInfo ?? { name: 'parley-client', version: '0.1.0' };
    const requested = this.options.protocolVersion ?? MODERN_VERSION;
    const modern = () =>
      new ModernSession(
        this.transport,
        { protocolVersion: MODERN_VERSION, capabilities: this.modernCapabilities(), clientInfo } satisfies Envelope,
        ctx,
      );
    const legacy = (protocolVersion: string) =>
      LegacySession.open(this.transport, { protocolVersion, capabilities: this.capabilities, clientInfo }, ctx);
    if (requested === MODERN_VERSION) return modern();
    if (isLegacyVersion(requested)) return legacy(requested);
    if (requested !== 'auto')
      throw new McpClientError(`Unknown protocol version "${requested}": use ${MODERN_VERSION}, ${LEGACY_VERSIONS.join(', ')} or 'auto'`);
    // 'auto': a modern server answers server/discover; anything else gets the legacy handshake.
    const candidate = modern();
    const discovered = await candidate
      .send({ jsonrpc: '2.0', id: this.nextId(), method: 'server/discover', params: {} })
      .catch(() => undefined);
    const versions = discovered?.result?.supportedVersions;
    return Array.isArray(versions) && versions.includes(MODERN_VERSION) ? candidate : legacy(LEGACY_VERSIONS[0]);
  }
}
