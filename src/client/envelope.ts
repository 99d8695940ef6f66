// What a 2026-07-28 request carries besides its params: the _meta envelope and the headers that mirror the body.
import { HEADER, META, isObject } from '../protocol';

export interface Envelope {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string };
}

/** The params with the client's _meta filled in wherever the caller's own _meta leaves a key out. */
export function withEnvelope(params: Record<string, unknown> | undefined, envelope: Envelope): Record<string, unknown> {
  const given = isObject(params?._meta) ? params._meta : {};
  return {
    ...params,
    _meta: {
      [META.protocolVersion]: envelope.protocolVersion,
      [META.clientCapabilities]: envelope.capabilities,
      [META.clientInfo]: envelope.clientInfo,
      ...given,
    },
  };
}

/** A header value as sent: plain when it is safe visible ASCII, else =?base64?…?= of its UTF-8. */
export function headerValue(value: string): string {
  if (/^[\x21-\x7E]([\x20-\x7E]*[\x21-\x7E])?$/.test(value)) return value;
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** The tasks extension's methods, which name their task in Mcp-Name (tasks/result and tasks/list are not among them). */
const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** MCP-Protocol-Version, Mcp-Method and Mcp-Name for a request whose params already carry the envelope. */
export function modernHeaders(method: string, params: Record<string, unknown>): Record<string, string> {
  const meta = isObject(params._meta) ? params._meta : {};
  const version = meta[META.protocolVersion];
  const headers: Record<string, string> = { [HEADER.method]: headerValue(method) };
  if (typeof version === 'string') headers[HEADER.protocolVersion] = version;
  const name =
    method === 'tools/call' || method === 'prompts/get'
      ? params.name
      : method === 'resources/read'
        ? params.uri
        : TASK_METHODS.has(method)
          ? params.taskId
          : undefined;
  if (typeof name === 'string') headers[HEADER.name] = headerValue(name);
  return headers;
}
