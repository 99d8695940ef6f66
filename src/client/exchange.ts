// One request over a transport: send it, pass on whatever else the server sends meanwhile, and return its response.
import { McpWireError, isNotification, isRequest, isResponse, type JsonRpcNotification, type JsonRpcRequest } from '../protocol';
import { McpClientError } from './errors';
import type { ClientTransport } from './types';

/** A JSON-RPC response as the server sent it; `result` and `error` are left loose for callers to read. */
export interface RpcResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: any;
  error?: any;
}

export interface Incoming {
  /** A request the server sent on this request's stream (legacy revisions only). */
  request?(message: JsonRpcRequest): void;
  notification?(message: JsonRpcNotification): void;
}

export async function exchange(
  transport: ClientTransport,
  message: JsonRpcRequest,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
  incoming: Incoming,
): Promise<RpcResponse> {
  for await (const received of transport.send(message, headers, signal)) {
    if (isResponse(received)) {
      // An error with a null id is the server refusing the request before reading its id.
      if (received.id === message.id || (received.id === null && received.error)) return received as RpcResponse;
      continue;
    }
    if (isRequest(received)) incoming.request?.(received);
    else if (isNotification(received)) incoming.notification?.(received);
  }
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new McpClientError('The request was aborted');
  throw new McpClientError(`The server ended the stream without answering ${message.method} (id ${message.id})`);
}

/** The result of a response, or its error thrown as an McpWireError (code, message, data). */
export function resultOf(response: RpcResponse): Record<string, any> {
  if (response.error) {
    const { code, message, data } = response.error as { code?: unknown; message?: unknown; data?: unknown };
    throw new McpWireError(typeof code === 'number' ? code : -32603, typeof message === 'string' ? message : 'Unknown error', data);
  }
  return (response.result ?? {}) as Record<string, any>;
}
