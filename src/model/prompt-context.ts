// PromptContext: the base class of every prompt. execute() builds the messages from the arguments.
import type { ScopeRequirement } from './tool-types';
import { RequestContext } from './request-context';
import type { Icon, SchemaInput } from './tool-types';

/** Suggests values for an argument in completion/complete, from what was typed so far. */
export type Completer = (value: string, context: { arguments: Record<string, string> }) => string[] | Promise<string[]>;

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
  complete?: Completer;
}

export interface PromptOptions {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  /**
   * The arguments as one object schema instead (any Standard Schema, a Zod shape or JSON Schema): listed from its
   * properties (their title and description, and whether required), and checked before execute(), which gets its output.
   */
  argumentsSchema?: SchemaInput;
  icons?: Icon[];
  /** Listed as written. */
  _meta?: Record<string, unknown>;
  /** The OAuth scopes a caller needs (403 insufficient_scope without them); never shown in prompts/list. */
  scopes?: ScopeRequirement;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: Record<string, unknown>;
}

/** What execute() may return: text (one user message), the messages, or a whole GetPromptResult. */
export type PromptReturn = string | PromptMessage[] | { description?: string; messages: PromptMessage[]; _meta?: Record<string, unknown> };

/**
 * The base class of prompts: execute() gets the arguments and may ask, report progress and log like a tool.
 * @example class Greet extends PromptContext<{ name: string }> { execute({ name }: { name: string }) { return `Greet ${name}.`; } }
 */
export abstract class PromptContext<Args extends Record<string, unknown> = Record<string, string>> extends RequestContext {
  abstract execute(args: Args): PromptReturn | Promise<PromptReturn>;
}
