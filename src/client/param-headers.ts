// Mcp-Param-* headers: the tool arguments a server marked with x-mcp-header, mirrored into headers on tools/call.
import { ErrorCode, isObject, ownValue } from '../protocol';
import { headerParamsOf, type HeaderParam } from '../model';
import { headerValue } from './envelope';
import type { RpcResponse } from './exchange';

export class ParamHeaders {
  /** By tool name, what tools/list said; a tool with malformed x-mcp-header entries gets none. */
  private readonly byTool = new Map<string, HeaderParam[]>();

  learn(tools: unknown[]): void {
    for (const tool of tools) {
      if (!isObject(tool) || typeof tool.name !== 'string' || !isObject(tool.inputSchema)) continue;
      let params: HeaderParam[] = [];
      try {
        params = headerParamsOf(tool.inputSchema, tool.name);
      } catch {
        // The server's schema breaks the x-mcp-header rules; send no headers and let it say what it wants.
      }
      this.byTool.set(tool.name, params);
    }
  }

  /** The headers for a call of this tool with these arguments. */
  for(name: unknown, args: unknown): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const param of (typeof name === 'string' && this.byTool.get(name)) || []) {
      const value = param.path.reduce<unknown>((node, key) => (isObject(node) ? ownValue(node, key) : undefined), args);
      if (value !== undefined && value !== null) headers[`mcp-param-${param.header.toLowerCase()}`] = headerValue(String(value));
    }
    return headers;
  }

  /** Whether a call was refused for an Mcp-Param header of a tool this client has not seen in tools/list. */
  missing(method: string, name: unknown, response: RpcResponse): boolean {
    return (
      method === 'tools/call' &&
      typeof name === 'string' &&
      !this.byTool.has(name) &&
      response.error?.code === ErrorCode.HeaderMismatch &&
      /Mcp-Param-/i.test(String(response.error?.message))
    );
  }
}
