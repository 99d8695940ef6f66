// The fallback's wire: the sendElicitationResult tool as tools/list shows it, and the pending result a tool returns.
// Before 2026-07-28 the elicitId names a question in a session; on 2026-07-28 it is the sealed question itself.
import type { CallToolResult, ToolEntry } from '../model';
import type { ElicitParams } from '../elicitation';

export const FALLBACK_TOOL = 'sendElicitationResult';

export const FALLBACK_TOOL_WIRE = {
  name: FALLBACK_TOOL,
  description:
    "Sends the user's answer to a question a tool asked in _meta.elicitationPending. The tool then runs again with the answer and returns its result.",
  inputSchema: {
    type: 'object',
    properties: {
      elicitId: { type: 'string', description: 'The elicitId from elicitationPending' },
      action: { type: 'string', enum: ['accept', 'decline', 'cancel'], description: 'What the user chose' },
      content: { type: 'object', description: "The user's answer, for accept, fitting the question's schema" },
    },
    required: ['elicitId', 'action'],
  },
} as const;

/** What a tool returns instead of its result while the model asks the user. */
export function pendingResult(entry: ToolEntry, elicitId: string, params: ElicitParams, inSession = true): CallToolResult {
  const schema = params.requestedSchema ?? { type: 'object', properties: {} };
  const elicitationPending = { elicitId, message: params.message, schema };
  const text =
    `This tool needs the user's input before it can finish. Ask the user: ${JSON.stringify(params.message)}. ` +
    `Then call ${FALLBACK_TOOL}${inSession ? ' in this same session (a client that connects anew for each call cannot answer it)' : ''} with elicitId ${JSON.stringify(elicitId)}, the action the user chose ("accept", "decline" or "cancel") ` +
    `and, for "accept", their answer as content, fitting this JSON Schema: ${JSON.stringify(schema)}`;
  return {
    content: [{ type: 'text', text }],
    // A tool with an outputSchema advertises a oneOf of it and this pending shape, so structured clients can check it.
    ...(entry.output ? { structuredContent: { elicitationPending } } : {}),
    _meta: { elicitationPending },
  };
}
