// The 2026-07-28 request checks: the _meta envelope, the version, and the headers that must match the body.
import { ErrorCode, HEADER, META, McpWireError, MODERN_VERSION, SUPPORTED_VERSIONS, headerMismatch, invalidParams, isObject } from '../protocol';

export interface ModernEnvelope {
  version: string;
  capabilities: Record<string, unknown>;
}

/** Decodes a header value sent as =?base64?…?= (for values that are not safe ASCII). */
export function decodeHeader(value: string): string | undefined {
  const m = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(value);
  if (!m) return value;
  try {
    const binary = atob(m[1]!);
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

export function readEnvelope(params: Record<string, unknown>): ModernEnvelope {
  const meta = params._meta;
  const version = isObject(meta) ? meta[META.protocolVersion] : undefined;
  const capabilities = isObject(meta) ? meta[META.clientCapabilities] : undefined;
  if (typeof version !== 'string' || !isObject(capabilities))
    throw invalidParams(`params._meta must carry "${META.protocolVersion}" and "${META.clientCapabilities}"`);
  if (version !== MODERN_VERSION)
    throw new McpWireError(ErrorCode.UnsupportedVersion, 'Unsupported protocol version', { supported: SUPPORTED_VERSIONS, requested: version });
  return { version, capabilities };
}

/** The value Mcp-Name must carry for a method, if it has one. */
function nameOf(method: string, params: Record<string, unknown>): unknown {
  if (method === 'tools/call' || method === 'prompts/get') return params.name;
  if (method === 'resources/read') return params.uri;
  return undefined;
}

export function checkHeaders(headers: Headers, method: string, params: Record<string, unknown>, version: string): void {
  const expect = (header: string, label: string, wanted: string) => {
    const raw = headers.get(header);
    if (raw === null) throw headerMismatch(`Header mismatch: the ${label} header is required`);
    const value = decodeHeader(raw);
    if (value === undefined) throw headerMismatch(`Header mismatch: the ${label} header is not valid base64 UTF-8`);
    if (value !== wanted) throw headerMismatch(`Header mismatch: ${label} header value '${value}' does not match body value '${wanted}'`);
  };
  expect(HEADER.protocolVersion, 'MCP-Protocol-Version', version);
  expect(HEADER.method, 'Mcp-Method', method);
  const name = nameOf(method, params);
  if (typeof name === 'string') expect(HEADER.name, 'Mcp-Name', name);
}
