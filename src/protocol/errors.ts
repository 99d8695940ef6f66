// Errors that go on the wire: a JSON-RPC code, an HTTP status and optional data.
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Older clients' sessions: the session is unknown, or ended while a call ran. */
  SessionNotFound: -32001,
  /** Legacy range, kept because the docs name it for ELICITATION_NOT_OWNED. */
  NotOwned: -32003,
  HeaderMismatch: -32020,
  MissingCapability: -32021,
  UnsupportedVersion: -32022,
  /** A limit on what one caller or the whole process may hold. An application code: MCP reserves -32768…-32000. */
  LimitReached: -31000,
  /** An older client's answer that no waiting call can receive (answered already, timed out, its instance gone). */
  AnswerUndeliverable: -31001,
  /** The server is shutting down: the call was ended, or not started. */
  ShuttingDown: -31002,
  /** The server's store (Redis, SQLite) did not answer in time, or failed: nothing was done; try again later. */
  StoreUnavailable: -31003,
} as const;

const STATUS = new Map<number, number>([
  [ErrorCode.ParseError, 400],
  [ErrorCode.InvalidRequest, 400],
  [ErrorCode.MethodNotFound, 404],
  [ErrorCode.InvalidParams, 400],
  [ErrorCode.InternalError, 500],
  [ErrorCode.HeaderMismatch, 400],
  [ErrorCode.MissingCapability, 400],
  [ErrorCode.UnsupportedVersion, 400],
]);

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
    this.status = status ?? STATUS.get(code) ?? 200;
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const invalidParams = (message: string, data?: unknown) => new McpWireError(ErrorCode.InvalidParams, message, data);
export const headerMismatch = (message: string) => new McpWireError(ErrorCode.HeaderMismatch, message);
export const methodNotFound = (method: string) => new McpWireError(ErrorCode.MethodNotFound, `Method not found: ${method}`);

/**
 * A refusal the client may try again later: 429 or 503, `retryAfterSeconds` in `data` and as the Retry-After header.
 * A limit, the store being unavailable and a shutdown are of this kind.
 */
export class RetryLaterError extends McpWireError {
  readonly retryAfterSeconds: number;
  constructor(code: number, message: string, data: Record<string, unknown>, retry: { afterSeconds: number; status?: 429 | 503 }) {
    super(code, message, { ...data, retryAfterSeconds: retry.afterSeconds }, retry.status ?? 503);
    this.name = 'RetryLaterError';
    this.retryAfterSeconds = retry.afterSeconds;
  }
}

/**
 * A limit the request ran into: 429 when it is the caller's own (too many sessions, streams), 503 when the process is
 * full. `data.limit` names the config option.
 */
export class LimitError extends RetryLaterError {
  constructor(message: string, retryAfterSeconds: number, whose: 'caller' | 'server', data: { limit: string; max: number }) {
    super(ErrorCode.LimitReached, message, data, { afterSeconds: retryAfterSeconds, status: whose === 'caller' ? 429 : 503 });
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
    super(ErrorCode.InvalidRequest, message, { error: 'insufficient_scope', scopes }, 403);
    this.name = 'InsufficientScopeError';
  }
}
