// The tool registry: every tool of every app, checked once at build time, with its wire schema precomputed.
import { InvalidInputError } from '../protocol';
import { checkScopesOption } from './scopes';
import { appOptionsOf, atDeclaration, toolOptionsOf } from './decorators';
import { headerParamsOf, type HeaderParam } from './header-params';
import { listedFields } from './listed-fields';
import { grantRuleProblem } from './grant-rule';
import { toJsonSchema, toValidator, type Validate } from './schema';
import type { ToolOptions } from './tool-types';
import type { ToolContext } from './tool-context';

export interface ToolEntry {
  name: string;
  cls: new () => ToolContext;
  options: ToolOptions;
  input?: Validate;
  output?: Validate;
  /** The tool as tools/list shows it. */
  wire: Record<string, unknown>;
  /** Input properties mirrored into Mcp-Param-* headers (x-mcp-header). */
  headerParams: HeaderParam[];
}

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

const ELICITATION_PENDING_SCHEMA = {
  type: 'object',
  properties: {
    elicitationPending: {
      type: 'object',
      properties: { elicitId: { type: 'string' }, message: { type: 'string' }, schema: { type: 'object' } },
      required: ['elicitId', 'message'],
    },
  },
  required: ['elicitationPending'],
} as const;

export function buildRegistry(apps: Function[], opts: { elicitation: boolean }): Map<string, ToolEntry> {
  const tools = new Map<string, ToolEntry>();
  for (const app of apps) {
    const appOptions = appOptionsOf(app);
    if (!appOptions) throw new Error(`${app.name || 'An app'} in apps is not decorated with @App`);
    for (const cls of appOptions.tools ?? []) {
      const options = toolOptionsOf(cls);
      if (!options) throw new Error(`${cls.name || 'A tool'} in app "${appOptions.id}" is not decorated with @Tool`);
      try {
        if (!NAME.test(options.name)) throw new Error(`Tool name "${options.name}" must be 1-128 characters of A-Z, a-z, 0-9, _, . and -`);
        if (tools.has(options.name)) throw new Error(`Duplicate tool name "${options.name}" (in app "${appOptions.id}")`);
        checkScopesOption(options.scopes, `Tool "${options.name}"`);
        tools.set(options.name, entryOf(cls as new () => ToolContext, options, opts.elicitation));
      } catch (error) {
        if (error instanceof Error && !error.message.includes(`"${options.name}"`))
          error.message = `Tool "${options.name}": ${error.message}`;
        throw atDeclaration(error, cls);
      }
    }
  }
  return tools;
}

function entryOf(cls: new () => ToolContext, options: ToolOptions, elicitation: boolean): ToolEntry {
  const wire: Record<string, unknown> = { name: options.name };
  if (options.title) wire.title = options.title;
  if (options.description) wire.description = options.description;
  wire.inputSchema = toJsonSchema(options.inputSchema ?? {}, 'input');
  const type = (wire.inputSchema as { type?: unknown }).type;
  if (type !== 'object')
    throw new Error(`inputSchema must describe an object (its JSON Schema has type ${JSON.stringify(type)}): arguments are named`);
  if (options.outputSchema) {
    const output = toJsonSchema(options.outputSchema, 'output');
    // With elicitation on, a tool may answer with the fallback's pending result instead.
    wire.outputSchema = elicitation ? { type: 'object', oneOf: [output, ELICITATION_PENDING_SCHEMA] } : output;
  }
  if (options.annotations) wire.annotations = options.annotations;
  Object.assign(wire, listedFields(options));
  if (options.grant !== undefined) {
    const problem = grantRuleProblem(options.grant, wire.inputSchema as Record<string, unknown>);
    if (problem) throw new InvalidInputError(problem);
  }
  const headerParams = headerParamsOf(wire.inputSchema as Record<string, unknown>, options.name);
  return {
    name: options.name,
    cls,
    options,
    input: toValidator(options.inputSchema ?? {}),
    output: options.outputSchema ? toValidator(options.outputSchema) : undefined,
    wire,
    headerParams,
  };
}
