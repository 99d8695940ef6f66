// parley-mcp/client: an MCP client for both protocol eras that answers elicitation, plus a form renderer and an annotation gate.

// The client and its transports.
export { McpClient, capabilitiesOf } from './client';
export type { RawRequest } from './client';
export { createHttpTransport } from './http-transport';
export type { HttpTransportOptions } from './http-transport';
export type { RpcResponse } from './exchange';

// What a client's user writes and reads.
export type {
  CallOptions,
  CallToolResult,
  ClientOptions,
  ClientTransport,
  ElicitAction,
  ElicitAnswer,
  ElicitContext,
  ElicitationHandler,
  ElicitRequestParams,
  JsonSchema,
  TaskOptions,
  TaskState,
  TaskStatus,
  Tool,
  ToolAnnotations,
} from './types';

// Failures a caller can tell apart (a JSON-RPC error from the server is an McpWireError from 'parley-mcp').
export { McpClientError, McpHttpError } from './errors';

// docs/client.md's helpers: render a form as text, and gate destructive tools on their annotations.
export { renderForm } from './form';
export { callWithGate, needsApproval } from './gate';
export type { GatedResult } from './gate';
