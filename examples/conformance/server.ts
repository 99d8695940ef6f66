// The conformance fixture: a Parley server with exactly the tools, prompts and resources the official suite calls.
import { App, FrontMcp, type FrontMcpConfigInput } from 'parley-mcp';
import { Elicitation, ElicitationDefaults, ElicitationEnums, Sampling } from './asking-tools';
import {
  AudioContent,
  EmbeddedResource,
  ErrorHandling,
  ImageContent,
  LoggingTool,
  MultipleContentTypes,
  SimpleText,
  ToolWithLogging,
  ToolWithProgress,
} from './content-tools';
import {
  AskModel,
  AskName,
  AskRoots,
  AskTamperProof,
  AskThree,
  AskTwice,
  AskWhatIsDeclared,
  AskWithState,
  NeedsSampling,
  StreamingElicitation,
} from './input-tools';
import { HeaderParam, JsonSchema202012, TriggerPromptChange, TriggerToolChange } from './other-tools';
import { AskingPrompt, PromptWithArguments, PromptWithEmbeddedResource, PromptWithImage, SimplePrompt } from './prompts';
import { StaticBinary, StaticText, TemplateData, WatchedResource } from './resources';
import { skills } from './skills';
import { ConfirmDelete, FailingJob, Greet, MultiInput, ProtocolErrorJob, SlowCompute, ToolWithTask } from './task-tools';

@App({
  id: 'conformance',
  name: 'Conformance fixture',
  // test_simple_text first: the header scenarios call the first listed tool with no arguments.
  tools: [
    SimpleText,
    ImageContent,
    AudioContent,
    EmbeddedResource,
    MultipleContentTypes,
    ErrorHandling,
    ToolWithProgress,
    ToolWithLogging,
    LoggingTool,
    AskName,
    AskModel,
    AskRoots,
    AskWithState,
    AskThree,
    AskTwice,
    AskTamperProof,
    AskWhatIsDeclared,
    NeedsSampling,
    StreamingElicitation,
    Sampling,
    Elicitation,
    ElicitationDefaults,
    ElicitationEnums,
    TriggerToolChange,
    TriggerPromptChange,
    JsonSchema202012,
    HeaderParam,
    // The tasks extension's, after the others.
    Greet,
    SlowCompute,
    FailingJob,
    ProtocolErrorJob,
    ConfirmDelete,
    MultiInput,
    ToolWithTask,
  ],
  prompts: [SimplePrompt, PromptWithArguments, PromptWithEmbeddedResource, PromptWithImage, AskingPrompt],
  resources: [StaticText, StaticBinary, TemplateData, WatchedResource],
})
export class ConformanceApp {}

export const config: FrontMcpConfigInput = {
  info: { name: 'parley-conformance', version: '1.0.0' },
  apps: [ConformanceApp],
  elicitation: { enabled: true },
  skills,
};

@FrontMcp(config)
export default class Server {}
