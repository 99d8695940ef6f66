// The 2026-07-28 request checks: the _meta envelope, the version, and the headers that must match the body.
import { headerMismatch, invalidParams, wireError } from './errors';
import { HEADER, META } from './meta';
import { MODERN_VERSION, SUPPORTED_VERSIONS } from './revisions';
import { isObject } from './jsonrpc';

interface ModernEnvelope {
  version: string;
  capabilities: Record<string, unknown>;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A header value with surrounding whitespace trimmed, decoded when sent as =?base64?…?= (for values that are not
 * safe ASCII). Undefined when it has control characters, or strict base64 (padding included) or UTF-8 fails.
 */
export function decodeHeader(raw: string): string | undefined {
  const value = raw.trim();
  if (!/^[\x20-\x7E]*$/.test(value)) return undefined;
  const m = /^=\?base64\?(.*)\?=$/.exec(value);
  if (!m) return value;
  if (!BASE64.test(m[1]!)) return undefined;
  try {
    const binary = atob(m[1]!);
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/**
 * Reads the _meta envelope. Given the request's MCP-Protocol-Version header (HTTP: its value, or null when it was not
 * sent), one that is missing or disagrees with _meta is -32020 before an unsupported version is -32022.
 */
export function readEnvelope(params: Record<string, unknown>, versionHeader?: string | null): ModernEnvelope {
  const meta = params._meta;
  const version = isObject(meta) ? meta[META.protocolVersion] : undefined;
  const capabilities = isObject(meta) ? meta[META.clientCapabilities] : undefined;
  if (typeof version !== 'string' || !isObject(capabilities))
    throw invalidParams(`params._meta must carry "${META.protocolVersion}" and "${META.clientCapabilities}"`);
  if (versionHeader !== undefined) expectHeader(versionHeader, 'MCP-Protocol-Version', version);
  if (version !== MODERN_VERSION)
    throw wireError('UNSUPPORTED_VERSION', 'Unsupported protocol version', {
      supported: SUPPORTED_VERSIONS,
      requested: version,
    });
  return { version, capabilities };
}

/**
 * Text decodeHeader gives back as it is: printable ASCII, no space at either end, not base64-encoded (`=?` first). A
 * loop over the few characters of a header, cheaper than a regular expression's match on every request.
 */
export function isPlainHeader(text: string): boolean {
  const n = text.length;
  if (n === 0 || text.charCodeAt(0) === 0x20 || text.charCodeAt(n - 1) === 0x20) return false;
  if (text.charCodeAt(0) === 0x3d && text.charCodeAt(1) === 0x3f) return false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

function expectHeader(raw: string | null, label: string, wanted: string): void {
  if (raw === wanted && isPlainHeader(raw)) return; // fast path: the value as sent is the body's
  if (raw === null) throw headerMismatch(`Header mismatch: the ${label} header is required`);
  const value = decodeHeader(raw);
  if (value === undefined) throw headerMismatch(`Header mismatch: the ${label} header is not valid base64 UTF-8`);
  if (value !== wanted) throw headerMismatch(`Header mismatch: ${label} header value '${value}' does not match body value '${wanted}'`);
}

/** The value Mcp-Name must carry for a method, if it has one. */
function nameOf(method: string, params: Record<string, unknown>): unknown {
  if (method === 'tools/call' || method === 'prompts/get') return params.name;
  if (method === 'resources/read') return params.uri;
  // The tasks extension's routing header: the task's id, so a balancer can send a poll where the task is.
  if (method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel') return params.taskId;
  return undefined;
}

/** The headers that repeat the body (Mcp-Method, Mcp-Name); MCP-Protocol-Version is readEnvelope's. */
export function checkHeaders(headers: Headers, method: string, params: Record<string, unknown>): void {
  expectHeader(headers.get(HEADER.method), 'Mcp-Method', method);
  const name = nameOf(method, params);
  if (typeof name === 'string') expectHeader(headers.get(HEADER.name), 'Mcp-Name', name);
}
