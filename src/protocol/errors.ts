// Errors that go on the wire: a JSON-RPC code, an HTTP status and optional data, each built from a key of the table.
import { STATUS_OF_CODE, WIRE_ERRORS, type WireErrorKey, type WireErrorRow } from './error-table';

/** A JSON-RPC error the client should see as-is. */
export class McpWireError extends Error {
  readonly status: number;
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    status?: number,
  ) {
    super(message);
    this.name = 'McpWireError';
    this.status = status ?? STATUS_OF_CODE.get(code) ?? 200;
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** `data` with a coded row's key first as `data.code`, as clients read it. */
const dataOf = (key: WireErrorKey, data: unknown) =>
  WIRE_ERRORS[key].coded ? { code: key, ...(data as Record<string, unknown> | undefined) } : data;

/**
 * The one way Parley builds a wire error: the table's row for `key` gives the code, the status and `data.code`;
 * the throw site says only what happened, and any more `data`.
 */
export function wireError(key: WireErrorKey, message: string, data?: unknown): McpWireError {
  const row: WireErrorRow = WIRE_ERRORS[key];
  return new McpWireError(row.code, message, dataOf(key, data), row.status);
}

/**
 * Before 2026-07-28 a JSON-RPC error travels in a 200 (the era's rule, not the error's): the same error, answered 200.
 * A refusal to retry later keeps its status and Retry-After, so it never comes here.
 */
export const inOkAnswer = (error: McpWireError): McpWireError => new McpWireError(error.code, error.message, error.data, 200);

export const invalidParams = (message: string, data?: unknown) => wireError('INVALID_PARAMS', message, data);
export const headerMismatch = (message: string) => wireError('HEADER_MISMATCH', message);
export const methodNotFound = (method: string) => wireError('METHOD_NOT_FOUND', `Method not found: ${method}`);

/** A message refused whole before it is read, with the id it carried when that could be read (null otherwise). */
export class RefusedMessage extends McpWireError {
  constructor(
    readonly id: string | number | null,
    key: WireErrorKey,
    message: string,
  ) {
    const row: WireErrorRow = WIRE_ERRORS[key];
    super(row.code, message, undefined, row.status);
  }
}

/**
 * A refusal the client may try again later: 429 or 503, `retryAfterSeconds` in `data` and as the Retry-After header.
 * A limit, the store being unavailable and a shutdown are of this kind.
 */
export class RetryLaterError extends McpWireError {
  readonly retryAfterSeconds: number;
  constructor(key: WireErrorKey, message: string, afterSeconds: number, data?: Record<string, unknown>) {
    const row: WireErrorRow = WIRE_ERRORS[key];
    super(row.code, message, { ...(dataOf(key, data) as object), retryAfterSeconds: afterSeconds }, row.status);
    this.name = 'RetryLaterError';
    this.retryAfterSeconds = afterSeconds;
  }
}

/**
 * A limit the request ran into: 429 when it is the caller's own (too many sessions, streams), 503 when the process is
 * full. `data.limit` names the config option.
 */
export class LimitError extends RetryLaterError {
  constructor(message: string, retryAfterSeconds: number, whose: 'caller' | 'server', data: { limit: string; max: number }) {
    super(whose === 'caller' ? 'CALLER_LIMIT' : 'SERVER_LIMIT', message, retryAfterSeconds, data);
    this.name = 'LimitError';
  }
}

/**
 * The caller's token lacks scopes an operation needs: over HTTP a 403 with a bearer challenge naming `scopes` (every
 * scope the operation needs, so one new token does), elsewhere this JSON-RPC error.
 */
export class InsufficientScopeError extends McpWireError {
  constructor(
    message: string,
    readonly scopes: readonly string[],
  ) {
    const row = WIRE_ERRORS.INSUFFICIENT_SCOPE;
    super(row.code, message, { error: 'insufficient_scope', scopes }, row.status);
    this.name = 'InsufficientScopeError';
  }
}
