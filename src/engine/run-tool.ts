// Running one tool: check its arguments, build its context, run execute() with the questions asked the given way, and
// shape what comes out (a result, a tool error, or suspended on a question).
import { McpWireError, InvalidInputError } from '../protocol';
import type { Asker } from '../elicitation';
import type { ParleyServer } from './server';
import { type ToolEntry, toCallToolResult, toToolError, type CallToolResult, type RequestScope } from '../model';
import { runHandler } from './run-handler';
import { requireScopes } from './scope-check';
import type { ToolTrace } from '../runtime';

type Outcome = { kind: 'result'; result: CallToolResult } | { kind: 'suspended' };

export function runTool(
  server: ParleyServer,
  entry: ToolEntry,
  args: Record<string, unknown>,
  scope: RequestScope,
  asker: Asker,
): Promise<Outcome> {
  // Fast path: untraced, the call runs as is.
  const trace = scope.trace?.tool(entry.name);
  return trace
    ? trace.watch(trace.run(() => execute(server, entry, args, scope, asker, trace)))
    : execute(server, entry, args, scope, asker);
}

async function execute(
  server: ParleyServer,
  entry: ToolEntry,
  args: Record<string, unknown>,
  scope: RequestScope,
  asker: Asker,
  trace?: ToolTrace,
): Promise<Outcome> {
  const name = entry.name;
  requireScopes(server, scope.auth, entry.options.scopes, args, `tool "${name}"`);
  try {
    let input: unknown = args;
    if (entry.input) {
      const check = entry.input(args);
      // Fast path: most checks answer at once; a library's asynchronous check is awaited.
      const checked = check instanceof Promise ? await check : check;
      if (!checked.ok) throw new InvalidInputError(`Invalid arguments for tool "${name}": ${checked.error}`);
      input = checked.value;
    }
    const run = await runHandler(server, { name, scope, asker, trace }, new entry.cls(), (ctx) => ctx.execute(input));
    if (run.kind === 'suspended') return run;
    const result = toCallToolResult(run.value, entry);
    return { kind: 'result', result: result instanceof Promise ? await result : result };
  } catch (error) {
    if (error instanceof McpWireError) throw error;
    return { kind: 'result', result: toToolError(error, server.logger, name) };
  }
}
