// What a handler can ask mid-request, as types: sampling and roots, the elicitation hooks, and the run that asks.
import type { AuthInfo, ElicitOptions, ElicitResult, SchemaInput } from './tool-types';
import type { InboxReason } from './unanswered-options';

interface SamplingMessage {
  role: 'user' | 'assistant';
  content: Record<string, unknown> | Record<string, unknown>[];
}

/** sampling/createMessage params, as the protocol defines them. */
export interface SampleParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  tools?: Record<string, unknown>[];
  toolChoice?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export interface SampleOptions {
  /** The inputRequests key; default `sampling-1`, `sampling-2`, … in the order asked. */
  key?: string;
  /** For a prompt given as a string: the token budget. Default 1000. */
  maxTokens?: number;
}

/** What the client's model answered (CreateMessageResult). */
export interface SampleResult {
  role: 'user' | 'assistant';
  content: Record<string, unknown> | Record<string, unknown>[];
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

export interface Root {
  uri: string;
  name?: string;
  [key: string]: unknown;
}

/** A question a tool is about to ask. */
export interface ElicitationQuestion {
  /** The name of the tool that asks. */
  tool: string;
  /** The question's key in this run: 'elicitation-1', 'elicitation-2', … */
  key: string;
  mode: 'form' | 'url';
  /** The message the tool wrote (a request hook sees it as the hooks before it left it). */
  message: string;
  /** The form's JSON Schema (form mode). */
  requestedSchema?: Record<string, unknown>;
  /** The page to open (URL mode). */
  url?: string;
  /** The caller who is asked. */
  auth: AuthInfo;
}

/** What a request hook may change: return it, or nothing to ask as is. */
export interface ElicitationRequestChange {
  message?: string;
}

/**
 * Runs when a question is about to be asked. Return `{ message }` to change what the person reads; throw to refuse
 * (a PublicMcpError's message reaches the caller as the tool's error, any other error is hidden behind an error id).
 * @example const noSecrets: ElicitationRequestHook = (q) => { if (/password/i.test(q.message)) throw new PublicMcpError('Never ask for passwords'); };
 */
export type ElicitationRequestHook = (
  question: Readonly<ElicitationQuestion>,
) => void | ElicitationRequestChange | Promise<void | ElicitationRequestChange>;

/** An answer that arrived, already checked against the schema. */
export interface ElicitationAnswer extends ElicitationQuestion {
  result: ElicitResult<unknown>;
  /** Set under `elicitation.unanswered`: who answered, the client or a person in the inbox. */
  answeredIn?: 'client' | 'inbox';
}

/** A question the unanswered-question policy put in the caller's inbox, and why. */
export interface ElicitationMove extends ElicitationQuestion {
  reason: InboxReason;
  /** The inbox question's id (what the inbox routes and the webhook name). */
  questionId: string;
}

/**
 * Runs when a question lands in the caller's inbox because the client did not (or could not) answer it.
 * @example const moved: ElicitationMovedHook = (m) => console.error(`${m.tool}: ${m.key} moved to the inbox (${m.reason})`);
 */
export type ElicitationMovedHook = (move: Readonly<ElicitationMove>) => void | Promise<void>;

/**
 * Runs when an answer arrives. Throw to reject it: the tool's elicit() throws that error instead of returning.
 * @example const audit: ElicitationResultHook = (a) => console.error(`${a.tool}: ${a.message} -> ${a.result.status}`);
 */
export type ElicitationResultHook = (answer: Readonly<ElicitationAnswer>) => void | Promise<void>;

export interface ElicitationHooks {
  request?: ElicitationRequestHook[];
  result?: ElicitationResultHook[];
  moved?: ElicitationMovedHook[];
}

/** Runs the request hooks in order, each seeing the message the one before it left; returns the message to send. */

/** What a handler's request asks through: elicitation/'s ElicitRun implements it. */
export interface Asking {
  elicit(message: string, schema: SchemaInput, options?: ElicitOptions): Promise<ElicitResult<unknown>>;
  sample(prompt: string | SampleParams, options?: SampleOptions): Promise<SampleResult>;
  listRoots(options?: { key?: string }): Promise<Root[]>;
  /** Makes the call a task where the request allows one; true once it is one. */
  startTask(): Promise<boolean>;
  /** Runs `fn` once per call: a replay returns its recorded JSON result. */
  step<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
}
