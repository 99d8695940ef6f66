// The 2026-07-28 era: stateless requests with the _meta envelope, and input_required rounds answered by the one handler.
import type { JsonRpcRequest } from '../protocol';
import { askHandler, declaredModes } from './answer';
import { withEnvelope, modernHeaders, type Envelope } from './envelope';
import { ParamHeaders } from './param-headers';
import { McpClientError } from './errors';
import { exchange, resultOf, type RpcResponse } from './exchange';
import type { RequestOptions, SessionContext, Session } from './session';
import { followTask, taskStateOf } from './task-follow';
import type { ClientTransport, ElicitRequestParams } from './types';

export class ModernSession implements Session {
  readonly protocolVersion: string;
  private readonly params = new ParamHeaders();
  constructor(
    private readonly transport: ClientTransport,
    private readonly envelope: Envelope,
    private readonly ctx: SessionContext,
  ) {
    this.protocolVersion = envelope.protocolVersion;
  }

  /** Sends one request as given, with the envelope and headers filled in where it leaves them out. */
  async send(message: JsonRpcRequest, signal?: AbortSignal): Promise<RpcResponse> {
    const params = withEnvelope(message.params, this.envelope);
    const headers = {
      ...modernHeaders(message.method, params),
      ...(message.method === 'tools/call' ? this.params.for(params.name, params.arguments) : {}),
    };
    const response = await exchange(this.transport, { ...message, params }, headers, signal, {
      notification: (n) => this.ctx.onNotification?.(n),
    });
    if (message.method === 'tools/list' && Array.isArray(response.result?.tools)) this.params.learn(response.result.tools);
    return response;
  }

  /** Runs the request through its input_required rounds; a tools/call answered with a task is polled to its end. */
  async request(method: string, params: Record<string, unknown>, options: RequestOptions = {}): Promise<Record<string, any>> {
    const result = await this.rounds(method, params, options.signal);
    if (result.resultType !== 'task') return result;
    if (method !== 'tools/call') throw new McpClientError(`The server answered ${method} with a task; only tools/call may become one`);
    const task = taskStateOf(result);
    if (options.task === 'return') return task;
    const signal = this.ctx.signal(options.signal);
    const io = {
      request: (m: string, p: Record<string, unknown>, s?: AbortSignal) => this.rounds(m, p, s),
      ask: (question: ElicitRequestParams, s: AbortSignal) =>
        askHandler(this.ctx.handler(), question, declaredModes(this.envelope.capabilities), AbortSignal.any([s, signal])),
    };
    return followTask(task, io, (suggested) => this.ctx.pace(suggested), { ...options, signal });
  }

  private async rounds(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, any>> {
    let retry: Record<string, unknown> = {};
    for (let round = 0; ; round++) {
      signal?.throwIfAborted();
      let response = await this.send({ jsonrpc: '2.0', id: this.ctx.nextId(), method, params: { ...params, ...retry } }, signal);
      // A tool whose Mcp-Param-* headers this client has not learned yet: learn them from tools/list, and send once more.
      if (this.params.missing(method, params.name, response)) {
        await this.send({ jsonrpc: '2.0', id: this.ctx.nextId(), method: 'tools/list', params: {} }, signal);
        response = await this.send({ jsonrpc: '2.0', id: this.ctx.nextId(), method, params: { ...params, ...retry } }, signal);
      }
      const result = resultOf(response);
      if (result.resultType !== 'input_required') return result;
      if (round >= this.ctx.maxRounds)
        throw new McpClientError(`${method} still needed input after ${this.ctx.maxRounds} rounds; the client gave up (maxRounds)`);
      retry = await this.fulfil(result, signal);
    }
  }

  /** Answers every input request, one after the other, and returns what the retry adds to its params. */
  private async fulfil(result: Record<string, any>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const requests = (result.inputRequests ?? {}) as Record<string, { method?: unknown; params?: unknown }>;
    // Keyed by names the server chose: no prototype, so a key `__proto__` is a key like any other.
    const inputResponses: Record<string, unknown> = Object.create(null);
    const callSignal = this.ctx.signal(signal);
    for (const [key, request] of Object.entries(requests)) {
      if (request?.method !== 'elicitation/create')
        throw new McpClientError(`The server asked for ${String(request?.method)}, which this client did not declare`);
      inputResponses[key] = await askHandler(
        this.ctx.handler(),
        request.params as ElicitRequestParams,
        declaredModes(this.envelope.capabilities),
        callSignal,
      );
    }
    return {
      ...(Object.keys(inputResponses).length ? { inputResponses } : {}),
      // Echoed exactly, and only when the server sent one.
      ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}),
    };
  }

  async close(): Promise<void> {
    await this.transport.close?.({});
  }
}
