// JSON-RPC 2.0 message shapes and the one parser every transport uses.
import { ErrorCode, McpWireError } from './errors';
import { parseJson } from './json';

export type JsonRpcId = string | number;
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}
export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses one JSON-RPC message from text; throws McpWireError (-32700, -32600) on anything else. */
export function parseMessage(text: string): JsonRpcMessage {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw new McpWireError(ErrorCode.ParseError, 'Parse error: the body is not valid JSON');
  }
  return checkMessage(value);
}

export function checkMessage(value: unknown): JsonRpcMessage {
  if (Array.isArray(value)) throw new McpWireError(ErrorCode.InvalidRequest, 'Invalid request: batches are not supported');
  if (!isObject(value) || value.jsonrpc !== '2.0')
    throw new McpWireError(ErrorCode.InvalidRequest, 'Invalid request: expected a JSON-RPC 2.0 object');
  const { id, method, params } = value;
  if (
    id !== undefined &&
    typeof id !== 'string' &&
    !(typeof id === 'number' && Number.isFinite(id)) &&
    !(id === null && method === undefined)
  )
    throw new McpWireError(ErrorCode.InvalidRequest, 'Invalid request: id must be a string or a number');
  if (method !== undefined) {
    if (typeof method !== 'string' || method === '')
      throw new McpWireError(ErrorCode.InvalidRequest, 'Invalid request: method must be a string');
    if (params !== undefined && !isObject(params))
      throw new McpWireError(ErrorCode.InvalidRequest, 'Invalid request: params must be an object');
    return value as unknown as JsonRpcRequest | JsonRpcNotification;
  }
  if (!Object.hasOwn(value, 'result') && !Object.hasOwn(value, 'error'))
    throw new McpWireError(ErrorCode.InvalidRequest, 'Invalid request: no method, result or error');
  return value as unknown as JsonRpcResponse;
}

export const isRequest = (m: JsonRpcMessage): m is JsonRpcRequest => Object.hasOwn(m, 'method') && (m as { id?: unknown }).id !== undefined;
export const isNotification = (m: JsonRpcMessage): m is JsonRpcNotification =>
  Object.hasOwn(m, 'method') && (m as { id?: unknown }).id === undefined;
export const isResponse = (m: JsonRpcMessage): m is JsonRpcResponse => !Object.hasOwn(m, 'method');

export const errorResponse = (id: JsonRpcId | null, error: McpWireError): JsonRpcResponse => ({
  jsonrpc: '2.0',
  id,
  error: error.toJSON(),
});
