// Parley's public API. Each group is listed by name, with why it is public.

// Declaring a server: the decorators and base class users write their tools with.
export { App, FrontMcp, Prompt, Resource, ResourceTemplate, Tool } from './server';
export type { AppOptions } from './server';
export { ToolContext } from './server';
export { PromptContext } from './server';
export type { Completer, PromptArgument, PromptMessage, PromptOptions, PromptReturn } from './server';
export { ResourceContext } from './server';
export type { CacheHint, ResourceContent, ResourceOptions, ResourceReturn, ResourceTemplateOptions } from './server';
export { expandUriTemplate } from './server';
export type { UriTemplateParams, UriTemplateValue } from './server';
export type { Root, SampleOptions, SampleParams, SampleResult } from './server';
export type { McpLogLevel } from './server';
export type { ListChanges } from './server';
export type {
  AuthInfo,
  ElicitOptions,
  ElicitResult,
  ElicitStatus,
  Icon,
  Infer,
  SchemaInput,
  TaskSupport,
  ToolAnnotations,
  ToolOptions,
} from './server';
// Sign-in: a tool's, prompt's or resource's `scopes`, a host's caller in the official SDK's shape, `auth.verify`, and
// the error a verifier throws when it could not ask the identity provider (503, not 401).
export type { ScopeRequirement, SdkAuthInfo, TokenVerify } from './server';
export { IdpUnavailableError } from './app';
export type { FrontMcpConfig, FrontMcpConfigInput } from './server';

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
} from './server';

// Zod, re-exported so tools need one import (without its translations: see server/zod.ts).
export { z } from './server';

// Errors a tool throws, or a caller may see by code.
export {
  ElicitationDisabledError,
  ElicitationNotSupportedError,
  ElicitationTimeoutError,
  InvalidInputError,
  PublicMcpError,
} from './protocol';
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
export { QuestionAlreadyAnsweredError, QuestionUnansweredError } from './protocol';
export type { InboxReason, UnansweredOption, UnansweredPolicy } from './server';
export type { InboxNotice, NotifyFunction } from './questions';

// Serving: a fetch handler for any runtime; adapters live under parley-mcp/node, parley-mcp/cloudflare, parley-mcp/vercel.
export { createFetchHandler } from './app';
export type { FetchHandler, HandlerOptions } from './app';
export { FrontMcpInstance } from './app';
// In-process: the docs' connect() client and createDirect() server, with no HTTP in between.
export { connect, createDirect } from './app';
export type { ConnectedClient, DirectAnswer, DirectCallOptions, DirectElicitationHandler, DirectServer } from './app';

// Protocol constants that clients and tests name.
export { MODERN_VERSION, SUPPORTED_VERSIONS } from './protocol';
