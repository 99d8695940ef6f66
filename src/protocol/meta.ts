// The reserved _meta keys of the modern protocol, header names of the Streamable HTTP transport, and the path Parley's
// own routes live under.
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/**
 * A result's `_meta` when it carries the server's info alone (most results): a literal, which V8 builds from its
 * boilerplate, where `{ [META.serverInfo]: info }` defines a computed key on an empty object on every call.
 */
export const serverInfoMeta = (info: unknown): { [META.serverInfo]: unknown } => ({ 'io.modelcontextprotocol/serverInfo': info });

export const HEADER = {
  protocolVersion: 'mcp-protocol-version',
  method: 'mcp-method',
  name: 'mcp-name',
  sessionId: 'mcp-session-id',
  paramPrefix: 'mcp-param-',
} as const;

/**
 * Where the inbox's routes live on every server: the page at `${INBOX_BASE}/inbox`, sign-in, the questions and their
 * answers. The one place the path is written: the server's routes, the links it prints and the page's script read it.
 */
export const INBOX_BASE = '/_frontmcp';
