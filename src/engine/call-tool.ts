// Running one tool call: check the arguments, build the context, run execute(), and shape what comes out.
import { McpWireError, invalidParams, isObject, InvalidInputError } from '../protocol';
import type { ParleyServer } from './server';
import { type ToolEntry, toCallToolResult, toToolError, type CallToolResult, describeIssues } from '../server';
import { runHandler, type HandlerScope } from './run-handler';
import type * as z from 'zod';
import type { ToolTrace } from '../runtime';

export type CallScope = HandlerScope;

export type Outcome = { kind: 'result'; result: CallToolResult } | { kind: 'suspended' };

export function findTool(server: ParleyServer, params: Record<string, unknown>) {
  const { name, arguments: args = {} } = params;
  if (typeof name !== 'string') throw invalidParams('tools/call needs params.name, a string');
  const entry = server.tools.get(name);
  if (!entry) throw invalidParams(`Unknown tool: ${name}`);
  if (!isObject(args)) throw invalidParams('params.arguments must be an object');
  return { entry, args };
}

export function runTool(server: ParleyServer, entry: ToolEntry, args: Record<string, unknown>, scope: CallScope): Promise<Outcome> {
  // Fast path: untraced, the call runs as is.
  const trace = scope.trace?.tool(entry.name);
  return trace ? trace.watch(execute(server, entry, args, scope, trace)) : execute(server, entry, args, scope);
}

async function execute(
  server: ParleyServer,
  entry: ToolEntry,
  args: Record<string, unknown>,
  scope: CallScope,
  trace?: ToolTrace,
): Promise<Outcome> {
  const name = entry.name;
  try {
    let input: unknown = args;
    if (entry.input) {
      const parsed = entry.input.safeParse(args);
      if (!parsed.success)
        throw new InvalidInputError(`Invalid arguments for tool "${name}": ${describeIssues(parsed.error as z.ZodError)}`);
      input = parsed.data;
    }
    const run = await runHandler(server, name, new entry.cls(), scope, (ctx) => ctx.execute(input), trace);
    if (run.kind === 'suspended') return run;
    return { kind: 'result', result: toCallToolResult(run.value, entry) };
  } catch (error) {
    if (error instanceof McpWireError) throw error;
    return { kind: 'result', result: toToolError(error, server.logger, name) };
  }
}
