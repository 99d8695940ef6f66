// Parley's public API. Each group is listed by name, with why it is public.

// Declaring a server: the decorators and base class users write their tools with.
export { App, FrontMcp, Prompt, Resource, ResourceTemplate, Tool } from './server/decorators';
export type { AppOptions } from './server/decorators';
export { ToolContext } from './server/tool-context';
export { PromptContext } from './server/prompt-context';
export type { Completer, PromptArgument, PromptMessage, PromptOptions, PromptReturn } from './server/prompt-context';
export { ResourceContext } from './server/resource-context';
export type { CacheHint, ResourceContent, ResourceOptions, ResourceReturn, ResourceTemplateOptions } from './server/resource-context';
export type { Root, SampleOptions, SampleParams, SampleResult } from './elicitation/inputs';
export type { McpLogLevel } from './server/notifier';
export type { ListChanges } from './server/changes';
export type { AuthInfo, ElicitOptions, ElicitResult, ElicitStatus, ToolAnnotations, ToolOptions } from './server/tool-types';
export type { FrontMcpConfig, FrontMcpConfigInput } from './server/config';

// Elicitation hooks: plain functions in `elicitation.hooks` that see and shape questions and answers on every transport.
export type {
  ElicitationAnswer,
  ElicitationHooks,
  ElicitationQuestion,
  ElicitationRequestChange,
  ElicitationRequestHook,
  ElicitationResultHook,
  ElicitationMove,
  ElicitationMovedHook,
} from './elicitation/hooks';

// Zod, re-exported so tools need one import (without its translations: see server/zod.ts).
export * as z from './server/zod';

// Errors a tool throws, or a caller may see by code.
export {
  ElicitationDisabledError,
  ElicitationNotSupportedError,
  ElicitationTimeoutError,
  InvalidInputError,
  PublicMcpError,
} from './server/errors';
export { ErrorCode, McpWireError } from './protocol';

// Persistent questions: answered later in the inbox, by a person signed in for the caller's subject.
export {
  InvalidQuestionStoreError,
  LoopbackTokenAuth,
  printQuestionInboxLink,
  QuestionPendingError,
  QuestionSupersededError,
  questionSubjectOf,
} from './questions';
export type { InboxLinks, PersistentOptions, QuestionStorage } from './questions';
// When the client does not answer (docs/unanswered.md): the policy's options, what a refused retry throws, the nudge.
export { QuestionAlreadyAnsweredError, QuestionUnansweredError } from './elicitation/unanswered-errors';
export type { InboxReason, UnansweredOption, UnansweredPolicy } from './elicitation/unanswered-options';
export type { InboxNotice, NotifyFunction } from './questions/notify-options';

// Serving: a fetch handler for any runtime; adapters live under parley-mcp/node, parley-mcp/cloudflare, parley-mcp/vercel.
export { createFetchHandler } from './http/handler';
export type { FetchHandler, HandlerOptions } from './http/handler';
export { FrontMcpInstance } from './server/front-mcp-instance';
// In-process: the docs' connect() client and createDirect() server, with no HTTP in between.
export { connect, createDirect } from './server/direct';
export type { ConnectedClient, DirectAnswer, DirectCallOptions, DirectElicitationHandler, DirectServer } from './server/direct';

// Protocol constants that clients and tests name.
export { MODERN_VERSION, SUPPORTED_VERSIONS } from './protocol';
