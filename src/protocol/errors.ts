// Errors that go on the wire: a JSON-RPC code, an HTTP status and optional data.
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Legacy range, kept because the docs name it for ELICITATION_NOT_OWNED. */
  NotOwned: -32003,
  HeaderMismatch: -32020,
  MissingCapability: -32021,
  UnsupportedVersion: -32022,
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
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

export const invalidParams = (message: string, data?: unknown) => new McpWireError(ErrorCode.InvalidParams, message, data);
export const headerMismatch = (message: string) => new McpWireError(ErrorCode.HeaderMismatch, message);
export const methodNotFound = (method: string) => new McpWireError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
