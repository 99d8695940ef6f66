// The shapes the client hands to its users: tools, results, elicitation requests and answers, options.
import type { JsonRpcMessage } from '../protocol';
import type { ToolAnnotations } from '../server';

/** A JSON Schema object as a server sends it; read freely. */
export type JsonSchema = { [key: string]: any };

/** The hints a server writes about its tools (the same shape servers declare them in). */
export type { ToolAnnotations };

/** A tool as tools/list describes it. */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  [key: string]: unknown;
}

export interface CallToolResult {
  content: Array<{ type: string; text?: string; [key: string]: unknown }>;
  structuredContent?: any;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The params of elicitation/create: a form (message + requestedSchema) or, with mode "url", a page to open. */
export interface ElicitRequestParams {
  mode?: 'form' | 'url';
  message: string;
  requestedSchema?: JsonSchema;
  url?: string;
  elicitationId?: string;
  [key: string]: unknown;
}

export type ElicitAction = 'accept' | 'decline' | 'cancel';

/** The person's answer. Only accept carries content, in form mode. */
export interface ElicitAnswer {
  action: ElicitAction;
  content?: Record<string, unknown>;
}

export interface ElicitContext {
  /** Fires when the server stops waiting for this answer (or the call is abandoned): close the dialog. */
  signal: AbortSignal;
}

/** Shows the question and returns the answer. Throwing counts as cancel. */
export type ElicitationHandler = (params: ElicitRequestParams, context: ElicitContext) => ElicitAnswer | Promise<ElicitAnswer>;

/** How messages reach a server: Streamable HTTP here, stdio or others by implementing this. */
export interface ClientTransport {
  /** Sends one message and yields what the server sends back for it, ending with the response to a request (nothing for an accepted notification or response). */
  send(message: JsonRpcMessage, headers?: Record<string, string>, signal?: AbortSignal): AsyncIterable<JsonRpcMessage>;
  /** The server's own stream of requests and notifications (legacy GET), where the transport has one. */
  listen?(headers: Record<string, string>, signal: AbortSignal): AsyncIterable<JsonRpcMessage>;
  /** Ends the session, if any, and releases the transport. */
  close?(headers: Record<string, string>): Promise<void>;
}

export interface ClientOptions {
  /** The server's MCP endpoint, for the built-in Streamable HTTP transport. */
  url?: string | URL;
  /** Replaces globalThis.fetch: `(request) => handler(request)` reaches an in-process server with no socket. */
  fetch?: (request: Request) => Promise<Response>;
  /** Another transport instead of HTTP (then `url` and `fetch` are unused). */
  transport?: ClientTransport;
  /** Extra headers on every HTTP request, e.g. `authorization`. */
  headers?: Record<string, string>;
  /** '2026-07-28' (the default), a legacy revision such as '2025-11-25', or 'auto' to ask the server. */
  protocolVersion?: string;
  /** Which elicitation modes to declare. Default: form only. `false` declares none. */
  elicitation?: { form?: boolean; url?: boolean } | false;
  /** Replaces the declared client capabilities outright (elicitation is then whatever this says). */
  capabilities?: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
  /** How many input_required rounds one request may take before the client gives up. Default 10. */
  maxRounds?: number;
  /** Called with every notification the server sends (progress, logging…). */
  onNotification?: (notification: { method: string; params?: Record<string, unknown> }) => void;
}
