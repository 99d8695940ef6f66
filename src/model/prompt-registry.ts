// The prompt registry: every prompt of every app, checked once at build time, with its prompts/list entry precomputed.
import { checkScopesOption } from './scopes';
import { appOptionsOf, promptOptionsOf } from './decorators';
import type { PromptArgument, PromptContext, PromptOptions } from './prompt-context';
import { listedFields } from './listed-fields';
import { toJsonSchema, toValidator, type Validate } from './schema';

export interface PromptEntry {
  name: string;
  cls: new () => PromptContext<Record<string, unknown>>;
  options: PromptOptions;
  /** The check of `argumentsSchema`, when the prompt has one. */
  validate?: Validate;
  /** The prompt as prompts/list shows it. */
  wire: Record<string, unknown>;
}

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export function buildPrompts(apps: Function[]): Map<string, PromptEntry> {
  const prompts = new Map<string, PromptEntry>();
  for (const app of apps) {
    const appOptions = appOptionsOf(app);
    for (const cls of appOptions?.prompts ?? []) {
      const options = promptOptionsOf(cls);
      if (!options) throw new Error(`${cls.name || 'A prompt'} in app "${appOptions!.id}" is not decorated with @Prompt`);
      if (!NAME.test(options.name)) throw new Error(`Prompt name "${options.name}" must be 1-128 characters of A-Z, a-z, 0-9, _, . and -`);
      if (prompts.has(options.name)) throw new Error(`Duplicate prompt name "${options.name}" (in app "${appOptions!.id}")`);
      checkScopesOption(options.scopes, `Prompt "${options.name}"`);
      const { name, title, description } = options;
      let args: Omit<PromptArgument, 'complete'>[] | undefined;
      let validate: Validate | undefined;
      let listed: Record<string, unknown>;
      try {
        listed = listedFields({ icons: options.icons, _meta: options._meta });
        if (options.argumentsSchema) {
          if (options.arguments) throw new Error('give arguments or argumentsSchema, not both');
          args = argumentsOf(toJsonSchema(options.argumentsSchema, 'input'));
          validate = toValidator(options.argumentsSchema);
        } else args = options.arguments?.map(({ complete: _c, ...arg }) => arg);
      } catch (error) {
        throw new Error(`Prompt "${name}": ${(error as Error).message}`);
      }
      const wire = {
        name,
        ...(title ? { title } : {}),
        ...(description ? { description } : {}),
        ...(args ? { arguments: args } : {}),
        ...listed,
      };
      prompts.set(name, { name, cls: cls as new () => PromptContext<Record<string, unknown>>, options, validate, wire });
    }
  }
  return prompts;
}

/** The prompts/list arguments of an object schema: each property, with its title and description, and whether required. */
function argumentsOf(json: Record<string, unknown>): Omit<PromptArgument, 'complete'>[] {
  if (json.type !== 'object')
    throw new Error(`argumentsSchema must describe an object (its JSON Schema has type ${JSON.stringify(json.type)})`);
  const required = Array.isArray(json.required) ? json.required : [];
  return Object.entries((json.properties ?? {}) as Record<string, { title?: unknown; description?: unknown }>).map(([name, property]) => ({
    name,
    ...(typeof property.title === 'string' ? { title: property.title } : {}),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    required: required.includes(name),
  }));
}
