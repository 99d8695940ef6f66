// Parley's public API. Each group is listed by name, with why it is public.

// Declaring a server: the decorators and base class users write their tools with.
export { App, FrontMcp, Prompt, Resource, ResourceTemplate, Tool } from './model';
export type { AppOptions } from './model';
export { ToolContext } from './model';
export { PromptContext } from './model';
export type { Completer, PromptArgument, PromptMessage, PromptOptions, PromptReturn } from './model';
export { ResourceContext } from './model';
export type { CacheHint, ResourceContent, ResourceOptions, ResourceReturn, ResourceTemplateOptions } from './model';
export { expandUriTemplate } from './model';
export type { UriTemplateParams, UriTemplateValue } from './model';
export type { Root, SampleOptions, SampleParams, SampleResult } from './model';
export type { McpLogLevel } from './model';
export type { ListChanges } from './model';
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
} from './model';
// Sign-in: a tool's, prompt's or resource's `scopes`, a host's caller in the official SDK's shape, `auth.verify`, and
// the error a verifier throws when it could not ask the identity provider (503, not 401).
export type { ScopeRequirement, SdkAuthInfo, TokenVerify } from './model';
export { IdpUnavailableError } from './auth';
// The config under the public names the docs use; inside src/ it is ParleyConfig, one name for one thing.
export type { ParleyConfig as FrontMcpConfig, ParleyConfigInput as FrontMcpConfigInput } from './model';

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
} from './model';

// Zod, re-exported so tools need one import (without its translations: see model/zod.ts).
export { z } from './model';

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
} from './inbox';
export type { InboxLinks, PersistentOptions, QuestionStorage } from './inbox';
// When the client does not answer (docs/unanswered.md): the policy's options, what a refused retry throws, the nudge.
export { QuestionAlreadyAnsweredError, QuestionUnansweredError } from './protocol';
export type { InboxReason, UnansweredOption, UnansweredPolicy } from './model';
export type { InboxNotice, NotifyFunction } from './inbox';

// Serving: a fetch handler for any runtime; adapters live under parley-mcp/node, parley-mcp/cloudflare, parley-mcp/vercel.
export { createFetchHandler } from './app';
export type { FetchHandler, HandlerOptions } from './app';
export { FrontMcpInstance } from './app';
// In-process: the docs' connect() client and createDirect() server, with no HTTP in between.
export { connect, createDirect } from './app';
export type { ConnectedClient, DirectAnswer, DirectCallOptions, DirectElicitationHandler, DirectServer } from './app';

// Protocol constants that clients and tests name.
export { MODERN_VERSION, SUPPORTED_VERSIONS } from './protocol';
