// The prompt registry: every prompt of every app, checked once at build time, with its prompts/list entry precomputed.
import { checkScopesOption } from './scopes';
import { appOptionsOf, promptOptionsOf } from './decorators';
import type { PromptContext, PromptOptions } from './prompt-context';

export interface PromptEntry {
  name: string;
  cls: new () => PromptContext;
  options: PromptOptions;
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
      const { name, title, description, icons } = options;
      const args = options.arguments?.map(({ complete: _c, ...arg }) => arg);
      const wire = {
        name,
        ...(title ? { title } : {}),
        ...(description ? { description } : {}),
        ...(args ? { arguments: args } : {}),
        ...(icons ? { icons } : {}),
      };
      prompts.set(name, { name, cls: cls as new () => PromptContext, options, wire });
    }
  }
  return prompts;
}
