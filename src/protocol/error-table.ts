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

/** One situation on the wire: its JSON-RPC code, and the HTTP status of the answer that carries it alone (200 where
 * the error travels as a call's answer). `coded` rows put their key first in the error's `data`, as `code`. */
export interface WireErrorRow {
  readonly code: number;
  readonly status: number;
  readonly coded?: true;
}

const row = (code: number, status: number, coded?: true): WireErrorRow => (coded ? { code, status, coded } : { code, status });

/**
 * Every wire error Parley sends, by key. A throw site names its key and says what happened
 * (`wireError('SESSION_NOT_FOUND', detail)`), never a status; a coded row's key is its `data.code`, what a client acts on.
 * The first eight rows, named for their code, also give the status of an error built from a code alone. Codes are
 * written as numbers (each is in ErrorCode above; a test checks it), so a Worker that never names ErrorCode does not
 * carry its names.
 */
export const WIRE_ERRORS = {
  PARSE_ERROR: row(-32700, 400),
  INVALID_REQUEST: row(-32600, 400),
  METHOD_NOT_FOUND: row(-32601, 404),
  INVALID_PARAMS: row(-32602, 400),
  INTERNAL_ERROR: row(-32603, 500),
  HEADER_MISMATCH: row(-32020, 400),
  MISSING_CAPABILITY: row(-32021, 400),
  UNSUPPORTED_VERSION: row(-32022, 400),
  /** The Origin or Host check refused the request. */
  FORBIDDEN: row(-32600, 403),
  /** The token lacks a scope; over HTTP a bearer challenge answers instead (http/challenge.ts). */
  INSUFFICIENT_SCOPE: row(-32600, 403),
  METHOD_NOT_ALLOWED: row(-32600, 405),
  NOT_ACCEPTABLE: row(-32600, 406),
  BODY_TOO_LARGE: row(-32600, 413),
  SESSION_NOT_FOUND: row(-32001, 404),
  /** The session ended while a call waited on it; the call's own answer says so. */
  SESSION_ENDED: row(-32001, 200, true),
  /** Older clients' sessions need a secret this deployment has not set. */
  SESSION_SECRET_REQUIRED: row(-32603, 503),
  ELICITATION_NOT_OWNED: row(-32003, 200, true),
  /** A limit of the caller's own (too many sessions, streams): it may try again once it holds fewer. */
  CALLER_LIMIT: row(-31000, 429),
  /** A limit of the whole process: another instance, or this one later, may serve it. */
  SERVER_LIMIT: row(-31000, 503),
  ANSWER_UNDELIVERABLE: row(-31001, 410, true),
  SHUTTING_DOWN: row(-31002, 503, true),
  STORE_UNAVAILABLE: row(-31003, 503, true),
} as const satisfies Record<string, WireErrorRow>;

/** A key of the error table. */
export type WireErrorKey = keyof typeof WIRE_ERRORS;

/** The status of an error built from a code alone (a McpWireError a tool throws itself): its code's row, else 200. */
export const STATUS_OF_CODE: ReadonlyMap<number, number> = new Map(
  Object.values(WIRE_ERRORS)
    .slice(0, 8) // the eight rows named for their code
    .map((r) => [r.code, r.status]),
);
