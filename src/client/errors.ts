// Client-side failures: a server that answered with something that is not MCP, or broke the protocol.
/** The server answered with an HTTP response that carries no JSON-RPC message (e.g. 404, 503). */
export class McpHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}${body ? `: ${body.slice(0, 300)}` : ''}`);
    this.name = 'McpHttpError';
  }
}

/** The server broke the protocol, or a request could not finish (too many rounds, a stream that ended early). */
export class McpClientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpClientError';
  }
}
