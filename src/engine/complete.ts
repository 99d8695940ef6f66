// completion/complete: suggestions for a prompt argument or a resource-template variable, from the completer its options name.
import { invalidParams, isObject } from '../protocol';
import type { ParleyServer } from './server';
import type { Completer } from '../model';

const MAX_VALUES = 100;

function completerFor(server: ParleyServer, ref: Record<string, unknown>, argument: string): Completer | undefined {
  if (ref.type === 'ref/prompt') {
    const prompt = typeof ref.name === 'string' ? server.prompts.get(ref.name) : undefined;
    if (!prompt) throw invalidParams(`Unknown prompt: ${String(ref.name)}`);
    return prompt.options.arguments?.find((a) => a.name === argument)?.complete;
  }
  if (ref.type === 'ref/resource') {
    const template = server.resources.templates.find((t) => t.options.uriTemplate === ref.uri);
    if (!template) throw invalidParams(`Unknown resource template: ${String(ref.uri)}`);
    const completers = template.options.complete;
    return completers && Object.hasOwn(completers, argument) ? completers[argument] : undefined;
  }
  throw invalidParams('params.ref.type must be "ref/prompt" or "ref/resource"');
}

export async function complete(server: ParleyServer, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { ref, argument, context } = params;
  if (!isObject(ref) || !isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string')
    throw invalidParams('completion/complete needs params.ref and params.argument { name, value }');
  const completer = completerFor(server, ref, argument.name);
  const given = isObject(context) && isObject(context.arguments) ? (context.arguments as Record<string, string>) : {};
  const values = completer ? await completer(argument.value, { arguments: given }) : [];
  if (!Array.isArray(values)) throw new Error(`The completer for "${argument.name}" returned no array`);
  const strings = values.map(String);
  return { completion: { values: strings.slice(0, MAX_VALUES), total: strings.length, hasMore: strings.length > MAX_VALUES } };
}
