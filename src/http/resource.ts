// This server's identity as an OAuth resource (RFC 8707, RFC 9728): the canonical URL of its MCP endpoint, and where
// its Protected Resource Metadata is.
import type { ParleyServer } from '../engine';
import { publicOrigin } from './public-url';

/** The well-known prefix of Protected Resource Metadata (RFC 9728 §3). */
export const METADATA_PATH = '/.well-known/oauth-protected-resource';

/** The resource a request reached: `auth.resource` when set, else the public origin plus `http.path`. */
export function resourceOf(request: Request, server: ParleyServer): string {
  return server.config.auth?.resource ?? `${publicOrigin(request, server.config.http)}${server.config.http.path}`;
}

/** Where a resource's metadata is: the well-known path inserted between its origin and its path (RFC 9728 §3.1). */
export function metadataUrlOf(resource: string): string {
  const { origin, pathname } = new URL(resource);
  return `${origin}${METADATA_PATH}${pathname === '/' ? '' : pathname}`;
}

/** The authorization servers the metadata lists: as configured, else the issuer(s); none for a bare `secret`. */
export function authorizationServersOf(server: ParleyServer): string[] {
  const auth = server.config.auth;
  return auth?.authorizationServers ?? [auth?.issuer ?? []].flat();
}

/** Scopes as a challenge or the metadata lists them: `offline_access` is the client's to ask for, never the server's. */
export const listedScopes = (scopes: readonly string[]): string[] => scopes.filter((s) => s !== 'offline_access');
