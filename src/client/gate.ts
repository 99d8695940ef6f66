// A client-side approval gate keyed on tool annotations, with the spec's defaults for a tool that says nothing.
import type { McpClient } from './client';
import type { CallToolResult, Tool } from './types';

/**
 * Whether to ask the person before calling a tool. readOnlyHint defaults to false and destructiveHint to true,
 * so only a tool that claims to be read-only, or claims not to be destructive, runs without asking.
 * Annotations are the server's own claims: trust them only from servers you trust.
 */
export function needsApproval(tool: Pick<Tool, 'annotations'> | undefined): boolean {
  const a = tool?.annotations ?? {};
  if (a.readOnlyHint === true) return false;
  return a.destructiveHint !== false;
}

export type GatedResult = CallToolResult & { refused?: true };

/**
 * Calls a tool, asking first when its annotations say it may destroy something. A "no" returns `{ refused: true }` without calling.
 * @example const result = await callWithGate(client, 'delete_ticket', { id: 't3' }, async (name) => confirm(`Run ${name}?`));
 */
export async function callWithGate(
  client: Pick<McpClient, 'listTools' | 'callTool'>,
  name: string,
  args: Record<string, unknown>,
  ask: (name: string, args: Record<string, unknown>) => boolean | Promise<boolean>,
): Promise<GatedResult> {
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === name);
  if (needsApproval(tool) && !(await ask(name, args))) return { refused: true, content: [], isError: false };
  return client.callTool({ name, arguments: args });
}
