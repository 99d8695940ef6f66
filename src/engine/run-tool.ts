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

/** A tool called for a request: which tool, with what arguments, in which request's scope. */
export interface CalledTool {
  entry: ToolEntry;
  args: Record<string, unknown>;
  scope: RequestScope;
}

/** One run of a called tool: its questions go to `asker`. */
interface ToolRun extends CalledTool {
  asker: Asker;
}

export function runTool(server: ParleyServer, run: ToolRun): Promise<Outcome> {
  // Fast path: untraced, the call runs as is.
  const trace = run.scope.trace?.tool(run.entry.name);
  return trace ? trace.watch(trace.run(() => execute(server, run, trace))) : execute(server, run);
}

async function execute(server: ParleyServer, { entry, args, scope, asker }: ToolRun, trace?: ToolTrace): Promise<Outcome> {
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
    const rule = entry.options.grant;
    // A tool that offers standing approvals: its persistent questions look for one first (inbox/grants.ts).
    const grant = rule && { tool: name, rule, args: (input ?? {}) as Record<string, unknown> };
    const run = await runHandler(server, { name, scope, asker, trace, grant }, new entry.cls(), (ctx) => ctx.execute(input));
    if (run.kind === 'suspended') return run;
    const result = toCallToolResult(run.value, entry);
    return { kind: 'result', result: result instanceof Promise ? await result : result };
  } catch (error) {
    if (error instanceof McpWireError) throw error;
    return { kind: 'result', result: toToolError(error, server.logger, name) };
  }
}
