// @FrontMcp, @App, @Tool, @Prompt, @Resource and @ResourceTemplate: each records its options on the class, in legacy or standard form.
import type { ParleyConfigInput } from './config';
import type { PromptOptions } from './prompt-context';
import type { ResourceOptions, ResourceTemplateOptions } from './resource-context';
import type { ToolOptions } from './tool-types';

export interface AppOptions {
  id: string;
  name?: string;
  tools?: Function[];
  prompts?: Function[];
  /** Classes decorated with @Resource or @ResourceTemplate. */
  resources?: Function[];
}

const SERVER = new WeakMap<Function, ParleyConfigInput>();
const APP = new WeakMap<Function, AppOptions>();
const TOOL = new WeakMap<Function, ToolOptions>();
const PROMPT = new WeakMap<Function, PromptOptions>();
const RESOURCE = new WeakMap<Function, ResourceOptions>();
const TEMPLATE = new WeakMap<Function, ResourceTemplateOptions>();

/**
 * A class decorator that works as a legacy (`experimentalDecorators`) and as a standard decorator, and as a plain
 * call where there is no decorator syntax (JavaScript): `Tool({ ... })(CloseTicket)` records and returns the class.
 */
type ClassDecoratorAnyForm = <T extends Function>(target: T, context?: unknown) => T;

/** Where each decorated class was declared (`file:line:column`), for errors about it. */
const SITE = new WeakMap<Function, string>();

const recorder =
  <T>(map: WeakMap<Function, T>) =>
  (options: T): ClassDecoratorAnyForm =>
  (target) => {
    map.set(target, options);
    const site = callerSite(new Error().stack);
    if (site) SITE.set(target, site);
    return target; // the same class: a decorator that returns it changes nothing
  };

/** The first stack frame outside this file and the compilers' __decorate helpers: the class's own line. */
function callerSite(stack: string | undefined): string | undefined {
  for (const line of stack?.split('\n').slice(1) ?? []) {
    if (/decorators\.[cm]?[jt]s|__decorate|__runInitializers|\(node:|at node:/.test(line)) continue;
    const at = /\(?((?:file:\/\/)?[^\s()]+:\d+:\d+)\)?\s*$/.exec(line);
    if (at) return at[1]!.replace(/^file:\/\//, '');
  }
  return undefined;
}

/** Adds the class's declaration site to an error about it, so the message names the file and line to fix. */
export function atDeclaration(error: unknown, target: Function): unknown {
  const site = SITE.get(target);
  if (site && error instanceof Error && !error.message.includes(site)) error.message += ` (declared at ${site})`;
  return error;
}

/** Declares the server: its info, apps and options. `createFetchHandler(Server)` reads them back. */
export const FrontMcp: (config: ParleyConfigInput) => ClassDecoratorAnyForm = recorder(SERVER);
/** Groups tools, prompts and resources into an app. */
export const App: (options: AppOptions) => ClassDecoratorAnyForm = recorder(APP);
/** Declares a tool on a class that extends ToolContext. */
export const Tool: (options: ToolOptions) => ClassDecoratorAnyForm = recorder(TOOL);
/**
 * Declares a prompt on a class that extends PromptContext.
 * @example @Prompt({ name: 'summarize', arguments: [{ name: 'topic', required: true }] }) class Summarize extends PromptContext { execute({ topic }) { return `Summarize ${topic}.`; } }
 */
export const Prompt: (options: PromptOptions) => ClassDecoratorAnyForm = recorder(PROMPT);
/**
 * Declares a resource at a fixed URI on a class that extends ResourceContext.
 * @example @Resource({ uri: 'desk://status', name: 'Status', mimeType: 'text/plain' }) class Status extends ResourceContext { execute() { return 'open'; } }
 */
export const Resource: (options: ResourceOptions) => ClassDecoratorAnyForm = recorder(RESOURCE);
/**
 * Declares a family of resources by URI template on a class that extends ResourceContext.
 * @example @ResourceTemplate({ uriTemplate: 'tickets://{id}', name: 'Ticket' }) class Ticket extends ResourceContext { execute(uri, { id }) { return load(id); } }
 */
export const ResourceTemplate: (options: ResourceTemplateOptions) => ClassDecoratorAnyForm = recorder(TEMPLATE);

export const serverOptionsOf = (target: Function) => SERVER.get(target);
export const appOptionsOf = (target: Function) => APP.get(target);
export const toolOptionsOf = (target: Function) => TOOL.get(target);
export const promptOptionsOf = (target: Function) => PROMPT.get(target);
export const resourceOptionsOf = (target: Function) => RESOURCE.get(target);
export const templateOptionsOf = (target: Function) => TEMPLATE.get(target);
