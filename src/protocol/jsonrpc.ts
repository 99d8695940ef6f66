// JSON-RPC 2.0 message shapes and the one parser every transport uses.
import { McpWireError, RefusedMessage, wireError } from './errors';
import { MAX_JSON_DEPTH, parseJson } from './json';

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

const PARSE_ERROR = 'Parse error: the body is not valid JSON';

/**
 * Parses one JSON-RPC message from text; throws McpWireError (-32700, -32600) on anything else, and RefusedMessage
 * for one nested deeper than MAX_JSON_DEPTH: -32602 under the id of a request (its params are what nests),
 * -32600 for a response.
 */
export function parseMessage(text: string): JsonRpcMessage {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    if (error instanceof McpWireError) throw tooDeepMessage(text);
    throw wireError('PARSE_ERROR', PARSE_ERROR);
  }
  return checkMessage(value);
}

/** V8's JSON.parse nests without recursion, so the text is parsed once more, without reviver, for its id alone. */
function tooDeepMessage(text: string): RefusedMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) throw wireError('PARSE_ERROR', PARSE_ERROR);
    value = undefined; // an engine that parses nesting by recursion: no id to read
  }
  const depth = `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`;
  if (value === undefined) return new RefusedMessage(null, 'INVALID_REQUEST', `Invalid request: the message ${depth}`);
  const message = checkMessage(value);
  const id = isRequest(message) || isResponse(message) ? message.id : null;
  return isResponse(message)
    ? new RefusedMessage(id, 'INVALID_REQUEST', `Invalid request: the message ${depth}`)
    : new RefusedMessage(id, 'INVALID_PARAMS', `Invalid params: the message ${depth}`);
}

export function checkMessage(value: unknown): JsonRpcMessage {
  if (Array.isArray(value)) throw wireError('INVALID_REQUEST', 'Invalid request: batches are not supported');
  if (!isObject(value) || value.jsonrpc !== '2.0') throw wireError('INVALID_REQUEST', 'Invalid request: expected a JSON-RPC 2.0 object');
  const { id, method, params } = value;
  if (
    id !== undefined &&
    typeof id !== 'string' &&
    !(typeof id === 'number' && Number.isFinite(id)) &&
    !(id === null && method === undefined)
  )
    throw wireError('INVALID_REQUEST', 'Invalid request: id must be a string or a number');
  if (method !== undefined) {
    if (typeof method !== 'string' || method === '') throw wireError('INVALID_REQUEST', 'Invalid request: method must be a string');
    if (params !== undefined && !isObject(params)) throw wireError('INVALID_REQUEST', 'Invalid request: params must be an object');
    return value as unknown as JsonRpcRequest | JsonRpcNotification;
  }
  if (!Object.hasOwn(value, 'result') && !Object.hasOwn(value, 'error'))
    throw wireError('INVALID_REQUEST', 'Invalid request: no method, result or error');
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
