// Revisions before 2026-07-28: initialize, a session, and server-initiated elicitation/create answered with a POSTed response.
import {
  HEADER,
  LEGACY_VERSIONS,
  isObject,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
} from '../protocol';
import { askHandler, declaredModes } from './answer';
import { McpClientError } from './errors';
import { exchange, resultOf, type Incoming, type RpcResponse } from './exchange';
import type { RequestOptions, Session, SessionContext } from './session';
import { followLegacyTask, legacyTaskOf } from './task-follow';
import type { ClientTransport, ElicitRequestParams } from './types';

interface LegacyOpenOptions {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string };
}

export class LegacySession implements Session {
  /** Server requests being answered, by id: aborted when the server stops waiting. */
  private readonly answering = new Map<JsonRpcId, AbortController>();
  private readonly listening = new AbortController();
  /** What initialize said the server can do (tasks.requests.tools.call: tools may run as tasks). */
  private serverCapabilities: Record<string, unknown> = {};
  /** By tool name, its execution.taskSupport as tools/list said. */
  private readonly taskSupport = new Map<string, unknown>();
  private readonly drain = async (iterable: AsyncIterable<JsonRpcMessage>) => {
    for await (const _ of iterable);
  };

  private constructor(
    private readonly transport: ClientTransport,
    private readonly capabilities: Record<string, unknown>,
    private readonly ctx: SessionContext,
    readonly protocolVersion: string,
  ) {}

  /** Runs the initialize handshake, then listens on the server's own stream. */
  static async open(transport: ClientTransport, options: LegacyOpenOptions, ctx: SessionContext): Promise<LegacySession> {
    const response = await exchange(
      transport,
      { jsonrpc: '2.0', id: ctx.nextId(), method: 'initialize', params: { ...options } },
      {},
      undefined,
      {},
    );
    const result = resultOf(response);
    const version = result.protocolVersion;
    if (typeof version !== 'string' || !(LEGACY_VERSIONS as readonly string[]).includes(version))
      throw new McpClientError(
        `The server answered initialize with protocol version ${JSON.stringify(version)}, which this client does not speak`,
      );
    const session = new LegacySession(transport, options.capabilities, ctx, version);
    session.serverCapabilities = isObject(result.capabilities) ? result.capabilities : {};
    await session.drain(session.notify('notifications/initialized'));
    session.listen();
    return session;
  }

  private headers(): Record<string, string> {
    return { [HEADER.protocolVersion]: this.protocolVersion };
  }

  private listen(): void {
    const stream = this.transport.listen?.(this.headers(), this.listening.signal);
    if (!stream) return;
    const incoming = this.incoming(new Set());
    void (async () => {
      for await (const message of stream) {
        if ('method' in message && 'id' in message && message.id !== undefined) incoming.request?.(message as JsonRpcRequest);
        else if ('method' in message) incoming.notification?.(message as JsonRpcNotification);
      }
    })().catch(() => {}); // the stream ends with the session; nothing to report
  }

  async send(message: JsonRpcRequest, signal?: AbortSignal): Promise<RpcResponse> {
    const onThisStream = new Set<JsonRpcId>();
    // Before 2026-07-28 a closed stream is not a cancellation: say so in a notification.
    const cancel = () =>
      void this.drain(this.notify('notifications/cancelled', { requestId: message.id, reason: String(signal?.reason ?? 'aborted') })).catch(
        () => {},
      );
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      return await exchange(this.transport, message, this.headers(), signal, this.incoming(onThisStream));
    } finally {
      signal?.removeEventListener('abort', cancel);
      // The call is over: whatever the server asked on its stream, it no longer waits for.
      for (const id of onThisStream) this.answering.get(id)?.abort(new McpClientError('The server stopped waiting'));
    }
  }

  private notify(method: string, params?: Record<string, unknown>): AsyncIterable<JsonRpcMessage> {
    return this.transport.send({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }, this.headers());
  }

  /** Sends a request and returns its result; a tools/call the client asked to run as a task is followed to its end. */
  async request(method: string, params: Record<string, unknown>, options: RequestOptions = {}): Promise<Record<string, any>> {
    const asTask = method === 'tools/call' && this.mayRunAsTask(params.name);
    const sent = asTask && !Object.hasOwn(params, 'task') ? { ...params, task: {} } : params;
    const result = resultOf(await this.send({ jsonrpc: '2.0', id: this.ctx.nextId(), method, params: sent }, options.signal));
    if (method === 'tools/list' && Array.isArray(result.tools))
      for (const tool of result.tools)
        if (isObject(tool) && typeof tool.name === 'string')
          this.taskSupport.set(tool.name, isObject(tool.execution) ? tool.execution.taskSupport : undefined);
    const task = method === 'tools/call' ? legacyTaskOf(result.task) : undefined;
    if (!task) return result;
    if (options.task === 'return') return { resultType: 'task', ...task }; // the shape startTool reads on both eras
    const signal = this.ctx.signal(options.signal);
    const io = { request: (m: string, p: Record<string, unknown>, s?: AbortSignal) => this.request(m, p, { signal: s }) };
    return followLegacyTask(task, io, (suggested) => this.ctx.pace(suggested), { ...options, signal });
  }

  /** Tasks on, a server that runs tools as tasks, and a tool that may be one (learned from tools/list). */
  private mayRunAsTask(name: unknown): boolean {
    const tasks = this.serverCapabilities.tasks;
    const requests = isObject(tasks) && isObject(tasks.requests) ? tasks.requests : {};
    const support = typeof name === 'string' ? this.taskSupport.get(name) : undefined;
    return (
      this.ctx.tasks && isObject(requests.tools) && isObject(requests.tools.call) && (support === 'optional' || support === 'required')
    );
  }

  private incoming(stream: Set<JsonRpcId>): Incoming {
    return {
      request: (request) => {
        stream.add(request.id);
        void this.answer(request);
      },
      notification: (notification) => {
        if (notification.method === 'notifications/cancelled') {
          const id = notification.params?.requestId as JsonRpcId | undefined;
          if (id !== undefined) this.answering.get(id)?.abort(new McpClientError('The server cancelled the request'));
          return;
        }
        this.ctx.onNotification?.(notification);
      },
    };
  }

  /** Answers one server request with a JSON-RPC response POSTed back, unless the server stopped waiting first. */
  private async answer(request: JsonRpcRequest): Promise<void> {
    const controller = new AbortController();
    this.answering.set(request.id, controller);
    try {
      let reply: Record<string, unknown>;
      if (request.method === 'elicitation/create') {
        const signal = this.ctx.signal(controller.signal);
        const answer = await askHandler(
          this.ctx.handler(),
          request.params as ElicitRequestParams,
          declaredModes(this.capabilities),
          signal,
        );
        reply = { result: answer };
      } else if (request.method === 'ping') reply = { result: {} };
      else reply = { error: { code: -32601, message: `Method not found: ${request.method}` } };
      if (controller.signal.aborted || this.ctx.closed.aborted) return;
      await this.drain(this.transport.send({ jsonrpc: '2.0', id: request.id, ...reply } as JsonRpcMessage, this.headers()));
    } catch {
      // The session ended or the server refused the answer; the call itself reports what happened.
    } finally {
      this.answering.delete(request.id);
    }
  }

  async close(): Promise<void> {
    this.listening.abort();
    for (const controller of this.answering.values()) controller.abort(new McpClientError('The client closed'));
    await this.transport.close?.(this.headers());
  }
}
