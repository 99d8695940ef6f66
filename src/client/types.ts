// The shapes the client hands to its users: tools, results, elicitation requests and answers, options.
import type { JsonRpcMessage } from '../protocol';
import type { ToolAnnotations } from '../model';

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
  /**
   * Declares the tasks extension on 2026-07-28 requests, so the server may answer a tools/call with a task (the
   * client then polls it to its end). Default off: a server runs an optional-task tool as a task for every client
   * that declares, and a task's result arrives a poll later than a plain call's. `{ minPollMs, maxPollMs }` bound the
   * server's pollIntervalMs (default 100 and 30,000).
   */
  tasks?: boolean | TaskOptions;
}

/** How a client paces its polls of a task: the server's pollIntervalMs, kept between these. */
export interface TaskOptions {
  /** The shortest wait between two polls, whatever the server suggests. Default 100. */
  minPollMs?: number;
  /** The longest wait between two polls (it wins over minPollMs). Default 30,000. */
  maxPollMs?: number;
}

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as the server shows it (2026-07-28's DetailedTask): what its status carries is inlined. */
export interface TaskState {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  ttlMs?: number | null;
  pollIntervalMs?: number;
  /** In input_required: every open question, by a key unique for the task's life. */
  inputRequests?: Record<string, { method: string; params?: Record<string, unknown> }>;
  /** In completed: the tool's result. */
  result?: CallToolResult;
  /** In failed: the JSON-RPC error the work ended with. */
  error?: { code: number; message: string; data?: unknown };
  [key: string]: unknown;
}

/** What a single call may add: its abort signal, and for a call that becomes a task, news of its status. */
export interface CallOptions {
  /** Aborts the call; for a task, the client sends tasks/cancel and the call throws the signal's reason. */
  signal?: AbortSignal;
  /** Called with the task each time its status or statusMessage changes (a task's progress is its statusMessage). */
  onTaskStatus?: (task: TaskState) => void;
}
