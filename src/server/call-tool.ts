// Running one tool call: check the arguments, build the context, run execute(), and shape what comes out.
import { ElicitRun } from '../elicitation/elicit';
import type { Asker } from '../elicitation/types';
import { McpWireError, invalidParams, isObject } from '../protocol';
import { InvalidInputError } from './errors';
import type { ParleyServer } from './instance';
import type { ToolEntry } from './registry';
import { toCallToolResult, toToolError, type CallToolResult } from './result';
import { describeIssues } from './schema';
import { attachCall } from './tool-context';
import type { AuthInfo } from './tool-types';
import type * as z from 'zod';

export interface CallScope {
  auth: AuthInfo;
  signal: AbortSignal;
  asker: Asker;
  /** Resolves when the run asked a question that ends it (an input_required round). */
  suspended?: Promise<void>;
}

export type Outcome = { kind: 'result'; result: CallToolResult } | { kind: 'suspended' };

export function findTool(server: ParleyServer, params: Record<string, unknown>) {
  const { name, arguments: args = {} } = params;
  if (typeof name !== 'string') throw invalidParams('tools/call needs params.name, a string');
  const entry = server.tools.get(name);
  if (!entry) throw invalidParams(`Unknown tool: ${name}`);
  if (!isObject(args)) throw invalidParams('params.arguments must be an object');
  return { entry, args };
}

export async function runTool(server: ParleyServer, entry: ToolEntry, args: Record<string, unknown>, scope: CallScope): Promise<Outcome> {
  const name = entry.name;
  try {
    let input: unknown = args;
    if (entry.input) {
      const parsed = entry.input.safeParse(args);
      if (!parsed.success) throw new InvalidInputError(`Invalid arguments for tool "${name}": ${describeIssues(parsed.error as z.ZodError)}`);
      input = parsed.data;
    }
    const ctx = new entry.cls();
    const settings = { enabled: server.config.elicitation.enabled, production: server.production, hooks: server.config.elicitation.hooks };
    const run = new ElicitRun(settings, scope.asker, { tool: name, auth: scope.auth });
    attachCall(ctx, { auth: scope.auth, signal: scope.signal, run });
    const done = Promise.resolve().then(() => ctx.execute(input)).then((value) => ({ kind: 'done' as const, value }));
    // Fast path: with no round to wait for, there is nothing to race.
    const first = scope.suspended ? await Promise.race([done, scope.suspended.then(() => ({ kind: 'suspended' as const }))]) : await done;
    if (first.kind === 'suspended') return first;
    return { kind: 'result', result: toCallToolResult(first.value, entry) };
  } catch (error) {
    if (error instanceof McpWireError) throw error;
    return { kind: 'result', result: toToolError(error, server.logger, name) };
  }
}
