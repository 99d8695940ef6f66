// Building HTTP responses: JSON-RPC results and errors, with the right status and no-store caching.
import { McpWireError, RetryLaterError, wireError } from './errors';
import { InvalidInputError, PublicMcpError, StoreUnavailableError } from './framework-errors';
import type { JsonRpcId } from './jsonrpc';
import type { Logger } from '../runtime';

/** Builds a Response from a text body (or none), its status and headers. */
export type PlainResponseMaker = (text: string | null, status: number, headers: Record<string, string>) => Response;

const fetchResponse: PlainResponseMaker = (text, status, headers) => new Response(text, { status, headers });

/** Every event stream's headers: no cache or proxy may hold its events back or rewrite them. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
} as const;

/**
 * What an event stream's bytes come from: a ReadableStream's source. Its controller may be a stand-in with only
 * `enqueue` and `close`, which throw once the stream is closed, as a controller's do.
 */
export type StreamSource = UnderlyingDefaultSource<Uint8Array>;

/** Builds a 200 event-stream answer from its source; `start` runs before it returns, as in ReadableStream's constructor. */
export type StreamResponseMaker = (source: StreamSource) => Response;

const fetchStream: StreamResponseMaker = (source) => new Response(new ReadableStream(source), { status: 200, headers: SSE_HEADERS });

/**
 * How a handler builds its plain answers (JSON, or empty) and its event streams. The default builds Fetch Responses;
 * parley-mcp/node passes makers that write to the socket without one, which costs more on Node than the whole rest of
 * a simple call. What any maker gives must behave as a Response to anyone who reads it.
 */
export class Responder {
  readonly #make: PlainResponseMaker;
  /** An event stream (SSE): parley-mcp/node writes its source's events to the socket with no web stream between. */
  readonly stream: StreamResponseMaker;

  constructor(make: PlainResponseMaker = fetchResponse, stream: StreamResponseMaker = fetchStream) {
    this.#make = make;
    this.stream = stream;
  }

  json(body: unknown, status = 200, headers?: Record<string, string>): Response {
    return this.#make(JSON.stringify(body), status, { 'content-type': 'application/json', ...headers });
  }

  result(id: JsonRpcId, result: unknown): Response {
    // Fast path: the envelope's fixed parts written as text, only the id and the result serialized (the same JSON).
    const text = typeof id === 'number' || typeof id === 'string' ? JSON.stringify(result) : undefined;
    if (text === undefined) return this.json({ jsonrpc: '2.0', id, result });
    // A finite number's JSON is its String() (the same ToString, -0 as 0): no call into JSON.stringify for most ids.
    const idJson = typeof id === 'number' && Number.isFinite(id) ? String(id) : JSON.stringify(id);
    return this.#make(`{"jsonrpc":"2.0","id":${idJson},"result":${text}}`, 200, { 'content-type': 'application/json' });
  }

  /** The one way a JSON-RPC error goes out over HTTP: its body, its status, and Retry-After for a refusal to retry. */
  error(id: JsonRpcId | null, error: McpWireError, headers?: Record<string, string>): Response {
    const retry = error instanceof RetryLaterError ? { 'retry-after': String(error.retryAfterSeconds) } : undefined;
    return this.json({ jsonrpc: '2.0', id, error: error.toJSON() }, error.status, { ...retry, ...headers });
  }

  /**
   * The one shape of an error that is not JSON-RPC (off the MCP path, the inbox, a start that failed): `error`, a word a
   * program can test, and `message`, a sentence a person can act on. Bearer refusals keep OAuth's own shape.
   */
  problem(status: number, error: string, message: string, headers?: Record<string, string>): Response {
    return this.json(problemBody(error, message), status, headers);
  }

  accepted(): Response {
    return this.#make(null, 202, {});
  }
}

/** The message of a 500 that is not JSON-RPC: what failed is in the log, never in the answer. */
export const INTERNAL_ERROR = 'The server could not answer this request; see its log.';

/** The body of every error that is not JSON-RPC: see `Responder.problem`. */
export const problemBody = (error: string, message: string): { error: string; message: string } => ({ error, message });

/** Fetch Responses: for answers made before a server is built, and where no platform passed its own maker. */
export const fetchResponder = new Responder();

export const tooLarge = (limit: number) => wireError('BODY_TOO_LARGE', `Request body too large (limit ${limit} bytes)`);

/** 405 for a method the MCP endpoint does not serve; the response names the one it does. */
export const methodNotAllowed = (allow: string) => wireError('METHOD_NOT_ALLOWED', `Method not allowed: use ${allow}`);

/**
 * How long a client waits before it tries again when the store is unavailable: a Redis that restarts or fails over
 * takes seconds, and trying sooner only adds to what waits on a store that hangs.
 */
export const STORE_RETRY_AFTER_S = 5;

/**
 * The one place an error becomes a JSON-RPC error: wire errors as they are; the store being unavailable is 503 with
 * Retry-After (its message names the store, the cause was logged where it failed); a PublicMcpError keeps its message
 * and code (bad input is -32602); anything else is hidden behind an error id, its details in the log.
 */
export function toWireError(error: unknown, logger: Logger): McpWireError {
  if (error instanceof McpWireError) return error;
  if (error instanceof StoreUnavailableError) return new RetryLaterError('STORE_UNAVAILABLE', error.message, STORE_RETRY_AFTER_S);
  if (error instanceof PublicMcpError)
    return wireError(error instanceof InvalidInputError ? 'INVALID_PARAMS' : 'INTERNAL_ERROR', error.message, { code: error.code });
  const errorId = crypto.randomUUID();
  logger.error(`Request failed (error id ${errorId})`, error);
  return wireError('INTERNAL_ERROR', `Internal error (error id: ${errorId})`);
}
