// The model's door: the config, decorators, registries, schemas, tool types, contexts and results.
export type {
  ElicitationAnswer,
  ElicitationHooks,
  ElicitationMove,
  ElicitationMovedHook,
  ElicitationQuestion,
  ElicitationRequestChange,
  ElicitationRequestHook,
  ElicitationResultHook,
  Root,
  SampleOptions,
  SampleParams,
  SampleResult,
} from './asking';
export { callerFromClaims, toCaller } from './caller';
export { questionSubjectOf } from './subject';
export type { SdkAuthInfo } from './caller';
export { createChangeHub } from './changes';
export type { Change, ChangeHub, ListChanges } from './changes';
export type { AuthOptions, TokenVerify } from './auth-options';
export { healthSchema, parseConfig } from './config';
export { configIssues } from './config-issues';
export type { ParleyConfig, ParleyConfigInput, ServerSettings } from './config';
export { App, FrontMcp, Prompt, Resource, ResourceTemplate, Tool, serverOptionsOf } from './decorators';
export type { AppOptions } from './decorators';
export { headerParamsOf } from './header-params';
export type { HeaderParam } from './header-params';
export { createNotifier, LOG_LEVELS } from './notifier';
export type { Emit, McpLogLevel, Notifier } from './notifier';
export { PromptContext } from './prompt-context';
export type { Completer, PromptArgument, PromptMessage, PromptOptions, PromptReturn } from './prompt-context';
export { buildPrompts } from './prompt-registry';
export type { PromptEntry } from './prompt-registry';
export { buildRegistry } from './registry';
export type { ToolEntry } from './registry';
export { attachRequest, runOf } from './request-context';
export type { RequestContext, RequestScope } from './request-context';
export { ResourceContext } from './resource-context';
export { missingScopes } from './scopes';
export type { CacheHint, ResourceContent, ResourceOptions, ResourceReturn, ResourceTemplateOptions } from './resource-context';
export { buildResources, findResource } from './resource-registry';
export type { ResourceEntry, Resources, SkillsSource, TemplateEntry } from './resource-types';
export type { SkillFiles, SkillService } from './skill-types';
export { toCallToolResult, toToolError } from './result';
export { expandUriTemplate } from './uri-template';
export type { UriTemplateParams, UriTemplateValue } from './uri-template';
export type { CallToolResult } from './result';
export { compileJsonSchema, optionsOf } from './json-schema';
export type { JsonSchemaCheck, JsonSchemaIssue } from './json-schema';
export { isJsonSchema, toFormSchema, toValidator } from './schema';
export { ToolContext } from './tool-context';
export { ANONYMOUS } from './tool-types';
export type {
  AuthInfo,
  ScopeRequirement,
  ElicitOptions,
  ElicitResult,
  ElicitStatus,
  Icon,
  Infer,
  SchemaInput,
  TaskSupport,
  ToolAnnotations,
  ToolOptions,
  GrantRule,
  Addressee,
  AddressingOptions,
  Decision,
  Escalation,
} from './tool-types';
export * as z from './zod';
export { ADDRESSING_FIELDS, DEFAULT_AFTER_MS } from './unanswered-options';
export type { InboxReason, UnansweredOption, UnansweredPolicy } from './unanswered-options';
export { MAX_GRANT_MS } from './grant-rule';
