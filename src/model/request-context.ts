// RequestContext: what every handler (tool, prompt, resource) can do mid-request: ask, report progress, log, announce.
import type { Asking, Root, SampleOptions, SampleParams, SampleResult } from './asking';
import type { ListChanges } from './changes';
import { PublicMcpError } from '../protocol';
import type { McpLogLevel, Notifier } from './notifier';
import type { AuthInfo, ElicitOptions, ElicitResult, Infer, SchemaInput } from './tool-types';
import type { RequestTrace } from '../runtime';

const CALL = Symbol('parley.call');

/**
 * One request, as the transport builds it and the handler's context reads it: the one carrier from the transport to the
 * tool (the engine adds only how questions are asked). `signal` may be a getter, built on first read (on some hosts it
 * is costly).
 */
export interface RequestScope {
  readonly auth: AuthInfo;
  readonly signal: AbortSignal;
  /** What the client declared on this request (or its session): `{}` when nothing. */
  readonly capabilities: Record<string, unknown>;
  /** Progress and log lines on the request's own stream (createNotifier). */
  readonly notifier: Notifier;
  readonly changes: ListChanges;
  /** The request's span, when tracing is on: a tool call starts its own under it. */
  readonly trace?: RequestTrace;
  /** Keeps work going after the response where the platform stops it otherwise (a Worker's ctx.waitUntil). */
  readonly keepAlive?: { waitUntil(promise: Promise<unknown>): void; readonly afterResponseMs?: number };
  /** The caller's address, when the host knows it (http.clientAddressHeader, else the socket's peer). */
  readonly client?: string;
}

interface RequestCall {
  scope: RequestScope;
  run: Asking;
}

export abstract class RequestContext {
  declare private [CALL]: RequestCall;

  /** The verified caller of this request. */
  get auth(): AuthInfo {
    return this[CALL].scope.auth;
  }

  /** Fires when the request is cancelled: the client closed the stream or sent notifications/cancelled. */
  get signal(): AbortSignal {
    return this[CALL].scope.signal;
  }

  /** The capabilities the client declared on this request (`{}` when it declared none). */
  get clientCapabilities(): Readonly<Record<string, unknown>> {
    return this[CALL].scope.capabilities;
  }

  /** Announces list changes and resource updates to open subscriptions/listen streams. */
  get changes(): ListChanges {
    return this[CALL].scope.changes;
  }

  /**
   * Asks the person and resolves with their answer, typed from the schema.
   * @example const answer = await this.elicit(`Close ticket ${id}?`, z.object({ confirm: z.boolean() }));
   */
  protected elicit<S extends SchemaInput>(message: string, requestedSchema: S, options?: ElicitOptions): Promise<ElicitResult<Infer<S>>> {
    return this[CALL].run.elicit(message, requestedSchema, options) as Promise<ElicitResult<Infer<S>>>;
  }

  /**
   * Asks the client's model for a completion (needs the client's `sampling` capability).
   * @example const reply = await this.sample('What is the capital of France?', { maxTokens: 100 });
   */
  protected sample(prompt: string | SampleParams, options?: SampleOptions): Promise<SampleResult> {
    return this[CALL].run.sample(prompt, options);
  }

  /**
   * Asks the client for its roots (needs the client's `roots` capability).
   * @example const roots = await this.listRoots();
   */
  protected listRoots(options?: { key?: string }): Promise<Root[]> {
    return this[CALL].run.listRoots(options);
  }

  /**
   * Reports progress when the request carries a progressToken; values must increase.
   * @example this.progress(50, 100, 'Half way');
   */
  protected progress(progress: number, total?: number, message?: string): void {
    this[CALL].scope.notifier.progress(progress, total, message);
  }

  /**
   * Sends a log line to the client, only when its request named a log level (and this one is at or above it).
   * @example this.log('info', 'Tool execution started');
   */
  protected log(level: McpLogLevel, data: unknown, logger?: string): void {
    this[CALL].scope.notifier.log(level, data, logger);
  }

  /** Ends the request with an error. A PublicMcpError's message is shown to the caller; any other error is hidden. */
  protected fail(error: Error | string): never {
    throw typeof error === 'string' ? new PublicMcpError(error) : error;
  }
}

/** The elicitation run of a handler's request (for helpers such as printQuestionInboxLink). */
export const runOf = (ctx: RequestContext): Asking | undefined => (ctx as unknown as Record<symbol, RequestCall | undefined>)[CALL]?.run;

/** Gives a freshly constructed context its request: caller, signal, capabilities, questions and notifications. */
export function attachRequest(ctx: RequestContext, scope: RequestScope, run: Asking): void {
  (ctx as unknown as Record<symbol, RequestCall>)[CALL] = { scope, run };
}
