// The one error table: a key names a situation and gives its JSON-RPC code, its HTTP status and its data.code.
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

/** One situation on the wire. `dataCode` goes first in the error's `data` as `code`, for a client to act on. */
export interface WireErrorRow {
  readonly code: number;
  /** The HTTP status of the answer that carries it alone; 200 where the error travels beside a result's shape. */
  readonly status: number;
  readonly dataCode?: string;
  /** The message when the throw site has no more to say. */
  readonly message: string;
}

const row = (code: number, status: number, message: string, dataCode?: string): WireErrorRow =>
  dataCode === undefined ? { code, status, message } : { code, status, message, dataCode };

/**
 * Every wire error Parley sends, by key. A throw site names its key (`wireError('SESSION_NOT_FOUND')`) and never a
 * status; the first rows, named for their code, also give the status of an error built from a code alone.
 */
export const WIRE_ERRORS = {
  PARSE_ERROR: row(ErrorCode.ParseError, 400, 'Parse error'),
  INVALID_REQUEST: row(ErrorCode.InvalidRequest, 400, 'Invalid request'),
  METHOD_NOT_FOUND: row(ErrorCode.MethodNotFound, 404, 'Method not found'),
  INVALID_PARAMS: row(ErrorCode.InvalidParams, 400, 'Invalid params'),
  INTERNAL_ERROR: row(ErrorCode.InternalError, 500, 'Internal error'),
  HEADER_MISMATCH: row(ErrorCode.HeaderMismatch, 400, 'A header does not match the request'),
  MISSING_CAPABILITY: row(ErrorCode.MissingCapability, 400, 'The request requires a client capability'),
  UNSUPPORTED_VERSION: row(ErrorCode.UnsupportedVersion, 400, 'Unsupported protocol version'),
  /** The Origin or Host check refused the request. */
  FORBIDDEN: row(ErrorCode.InvalidRequest, 403, 'Forbidden'),
  /** The token lacks a scope; over HTTP a bearer challenge answers instead (http/challenge.ts). */
  INSUFFICIENT_SCOPE: row(ErrorCode.InvalidRequest, 403, 'Insufficient scope'),
  METHOD_NOT_ALLOWED: row(ErrorCode.InvalidRequest, 405, 'Method not allowed'),
  NOT_ACCEPTABLE: row(ErrorCode.InvalidRequest, 406, 'Not Acceptable'),
  BODY_TOO_LARGE: row(ErrorCode.InvalidRequest, 413, 'Request body too large'),
  SESSION_NOT_FOUND: row(ErrorCode.SessionNotFound, 404, 'Session not found'),
  /** The session ended while a call waited on it; the call's own answer says so. */
  SESSION_ENDED: row(ErrorCode.SessionNotFound, 200, 'Session ended while the call waited', 'SESSION_ENDED'),
  /** Older clients' sessions need a secret this deployment has not set. */
  SESSION_SECRET_REQUIRED: row(ErrorCode.InternalError, 503, 'A session secret is required'),
  ELICITATION_NOT_OWNED: row(ErrorCode.NotOwned, 200, 'The elicitation was not requested by this caller', 'ELICITATION_NOT_OWNED'),
  /** A limit of the caller's own (too many sessions, streams): it may try again once it holds fewer. */
  CALLER_LIMIT: row(ErrorCode.LimitReached, 429, 'A limit was reached'),
  /** A limit of the whole process: another instance, or this one later, may serve it. */
  SERVER_LIMIT: row(ErrorCode.LimitReached, 503, 'The server is full'),
  ANSWER_UNDELIVERABLE: row(ErrorCode.AnswerUndeliverable, 410, 'No call waits for this answer', 'ANSWER_UNDELIVERABLE'),
  SHUTTING_DOWN: row(ErrorCode.ShuttingDown, 503, 'The server is shutting down', 'SHUTTING_DOWN'),
  STORE_UNAVAILABLE: row(ErrorCode.StoreUnavailable, 503, 'The store is unavailable', 'STORE_UNAVAILABLE'),
} as const satisfies Record<string, WireErrorRow>;

/** A key of the error table. */
export type WireErrorKey = keyof typeof WIRE_ERRORS;

/** The status of an error built from a code alone (a McpWireError a tool throws itself): its code's row, else 200. */
export const STATUS_OF_CODE: ReadonlyMap<number, number> = new Map(
  (
    [
      'PARSE_ERROR',
      'INVALID_REQUEST',
      'METHOD_NOT_FOUND',
      'INVALID_PARAMS',
      'INTERNAL_ERROR',
      'HEADER_MISMATCH',
      'MISSING_CAPABILITY',
      'UNSUPPORTED_VERSION',
    ] as const
  ).map((key) => [WIRE_ERRORS[key].code, WIRE_ERRORS[key].status]),
);
