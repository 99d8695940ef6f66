// Building HTTP responses: JSON-RPC results and errors, with the right status and no-store caching.
import { ErrorCode, LimitError, McpWireError, type JsonRpcId } from '../protocol';
import type { Logger } from '../runtime';

/** Builds a Response from a text body (or none), its status and headers. */
export type PlainResponseMaker = (text: string | null, status: number, headers: Record<string, string>) => Response;

let makePlain: PlainResponseMaker = (text, status, headers) => new Response(text, { status, headers });

/**
 * Swaps how plain responses are built: parley-mcp/node writes them to the socket without a Fetch Response, which costs
 * more on Node than the whole rest of a simple call. The one it gives must behave as a Response to anyone who reads it.
 */
export const usePlainResponses = (maker: PlainResponseMaker): void => {
  makePlain = maker;
};

export const jsonResponse = (body: unknown, status = 200, headers?: Record<string, string>): Response =>
  makePlain(JSON.stringify(body), status, { 'content-type': 'application/json', ...headers });

export const resultResponse = (id: JsonRpcId, result: unknown): Response => jsonResponse({ jsonrpc: '2.0', id, result });

/** A limit's refusal carries Retry-After, so the client knows when to come back. */
export const errorResponseOf = (id: JsonRpcId | null, error: McpWireError, headers?: Record<string, string>): Response =>
  jsonResponse({ jsonrpc: '2.0', id, error: error.toJSON() }, error.status, error instanceof LimitError ? { 'retry-after': String(error.retryAfterSeconds), ...headers } : headers);

export const tooLarge = (limit: number) => new McpWireError(ErrorCode.InvalidRequest, `Request body too large (limit ${limit} bytes)`, undefined, 413);

export const accepted = (): Response => makePlain(null, 202, {});

export const methodNotAllowed = (allow: string): Response =>
  jsonResponse({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: `Method not allowed: use ${allow}` } }, 405, { allow });

/** The one place an error becomes a JSON-RPC error: wire errors as they are, anything else hidden behind a logged error id. */
export function toWireError(error: unknown, logger: Logger): McpWireError {
  if (error instanceof McpWireError) return error;
  const errorId = crypto.randomUUID();
  logger.error(`Request failed (error id ${errorId})`, error);
  return new McpWireError(ErrorCode.InternalError, `Internal error (error id: ${errorId})`);
}
