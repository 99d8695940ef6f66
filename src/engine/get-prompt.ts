// prompts/get: find the prompt, check its arguments, run execute(), and shape the messages it returns.
import { invalidParams, isObject, ownValue, toWireError } from '../protocol';
import type { RoundOutcome } from './round-call';
import type { ParleyServer } from './server';
import type { PromptReturn, PromptEntry, RequestScope } from '../model';
import { runHandler } from './run-handler';
import { requireScopes } from './scope-check';
import type { Asker } from '../elicitation';

export function findPrompt(server: ParleyServer, params: Record<string, unknown>): { entry: PromptEntry; args: Record<string, string> } {
  const { name, arguments: args = {} } = params;
  if (typeof name !== 'string') throw invalidParams('prompts/get needs params.name, a string');
  const entry = server.prompts.get(name);
  if (!entry) throw invalidParams(`Unknown prompt: ${name}`);
  if (!isObject(args) || !Object.values(args).every((v) => typeof v === 'string'))
    throw invalidParams('params.arguments must be an object of strings');
  const missing = (entry.options.arguments ?? []).filter((a) => a.required && ownValue(args, a.name) === undefined).map((a) => a.name);
  if (missing.length)
    throw invalidParams(`Missing required argument${missing.length > 1 ? 's' : ''} for prompt "${name}": ${missing.join(', ')}`);
  return { entry, args: args as Record<string, string> };
}

function toPromptResult(value: PromptReturn, entry: PromptEntry): Record<string, unknown> {
  const description = entry.options.description;
  const base = description ? { description } : {};
  if (typeof value === 'string') return { ...base, messages: [{ role: 'user', content: { type: 'text', text: value } }] };
  if (Array.isArray(value)) return { ...base, messages: value };
  if (isObject(value) && Array.isArray(value.messages)) return { ...base, ...value };
  throw new Error(`Prompt "${entry.name}" returned neither text, messages nor { messages }`);
}

export async function runPrompt(
  server: ParleyServer,
  entry: PromptEntry,
  args: Record<string, string>,
  scope: RequestScope,
  asker: Asker,
): Promise<RoundOutcome> {
  requireScopes(server, scope.auth, entry.options.scopes, args, `prompt "${entry.name}"`);
  try {
    let input: Record<string, unknown> = args;
    if (entry.validate) {
      const checked = await entry.validate(args);
      if (!checked.ok) throw invalidParams(`Invalid arguments for prompt "${entry.name}": ${checked.error}`);
      input = checked.value as Record<string, unknown>;
    }
    const run = await runHandler(server, { name: entry.name, scope, asker }, new entry.cls(), (ctx) => ctx.execute(input));
    return run.kind === 'suspended' ? run : { kind: 'result', result: toPromptResult(run.value, entry) };
  } catch (error) {
    throw toWireError(error, server.logger); // they have no isError result: a PublicMcpError keeps its message
  }
}
