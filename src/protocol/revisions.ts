// The protocol revisions Parley serves, and the era each belongs to.
import { isObject, isRequest, type JsonRpcMessage } from './jsonrpc';
import { META } from './meta';

export const MODERN_VERSION = '2026-07-28';
/** Revisions served with initialize and sessions, newest first. */
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** What this build serves, newest first. */
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

export const isLegacyVersion = (version: string): boolean => (LEGACY_VERSIONS as readonly string[]).includes(version);

/**
 * The one era classifier, for every transport: whether a message belongs to a revision before 2026-07-28. initialize is
 * the older handshake unless a 2026-07-28 `_meta` envelope names its version (then it is a removed method); a legacy
 * version header (HTTP's MCP-Protocol-Version) is older; a message that names its version in `_meta` is 2026-07-28's;
 * anything else is older when it comes in an older client's session (HTTP's Mcp-Session-Id, a stdio connection that
 * initialized).
 */
export function isLegacyMessage(message: JsonRpcMessage, transport: { session: boolean; version?: string | null }): boolean {
  const meta = 'params' in message ? message.params?._meta : undefined;
  const named = isObject(meta) && Object.hasOwn(meta, META.protocolVersion);
  if (isRequest(message) && message.method === 'initialize') return !named;
  if (typeof transport.version === 'string' && isLegacyVersion(transport.version)) return true;
  return !named && transport.session;
}
