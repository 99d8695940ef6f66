// Turning what execute() returned, or threw, into a CallToolResult.
import { InvalidOutputError, PublicMcpError } from '../protocol';
import type { ToolEntry } from './registry';
import type { Checked } from './schema';
import type { Logger } from '../runtime';

export type CallToolResult = { content: unknown[]; structuredContent?: unknown; isError?: boolean; _meta?: Record<string, unknown> };

const text = (t: string) => ({ type: 'text', text: t });

/** The result of what execute() returned; a promise only when the outputSchema's library checks asynchronously. */
export function toCallToolResult(value: unknown, tool: ToolEntry): CallToolResult | Promise<CallToolResult> {
  if (tool.output) {
    const checked = tool.output(value);
    return checked instanceof Promise ? checked.then((c) => structured(c, tool)) : structured(checked, tool);
  }
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === 'string') return { content: [text(value)] };
  if (typeof value === 'object' && Array.isArray((value as { content?: unknown }).content)) return value as CallToolResult;
  return { content: [text(JSON.stringify(value))], structuredContent: value };
}

function structured(checked: Checked, tool: ToolEntry): CallToolResult {
  if (!checked.ok)
    throw new InvalidOutputError(`Tool "${tool.name}" returned a result that does not match its outputSchema: ${checked.error}`);
  return { content: [text(JSON.stringify(checked.value))], structuredContent: checked.value };
}

/** The one place a thrown error becomes a tool error: public messages are shown, anything else gets an error id. */
export function toToolError(error: unknown, logger: Logger, toolName: string): CallToolResult {
  if (error instanceof PublicMcpError) return { content: [text(error.message)], isError: true, _meta: { ...error.meta, code: error.code } };
  const errorId = crypto.randomUUID();
  logger.error(`Tool "${toolName}" failed (error id ${errorId})`, error);
  return { content: [text(`Internal error (error id: ${errorId})`)], isError: true, _meta: { code: 'INTERNAL_ERROR', errorId } };
}
