// Framework errors: a stable string code, shown to the caller as a tool error with _meta.code.
/** An error whose message the caller may see. Any other error is hidden behind an error id. */
export class PublicMcpError extends Error {
  readonly code: string;
  /** More for the tool result's `_meta`, beside `code` (what an agent can act on). */
  meta?: Record<string, unknown>;
  constructor(message: string, code = 'TOOL_ERROR') {
    super(message);
    this.name = 'PublicMcpError';
    this.code = code;
  }
}

const coded = (code: string, name: string) =>
  class extends PublicMcpError {
    static readonly code = code;
    constructor(message: string) {
      super(message, code);
      this.name = name;
    }
  };

export class InvalidInputError extends coded('INVALID_INPUT', 'InvalidInputError') {}
export class ElicitationDisabledError extends coded('ELICITATION_DISABLED', 'ElicitationDisabledError') {}
export class ElicitationNotSupportedError extends coded('ELICITATION_NOT_SUPPORTED', 'ElicitationNotSupportedError') {}
export class ElicitationTimeoutError extends coded('ELICITATION_TIMEOUT', 'ElicitationTimeoutError') {}
export class InvalidOutputError extends coded('INVALID_OUTPUT', 'InvalidOutputError') {}
/**
 * The store (Redis, Redis over HTTP, SQLite) did not answer within elicitation.storeTimeoutMs, or failed: a request
 * gets 503 with Retry-After, a tool that was asking gets a tool error. The driver's own error goes to the log only.
 */
export class StoreUnavailableError extends coded('STORE_UNAVAILABLE', 'StoreUnavailableError') {}
