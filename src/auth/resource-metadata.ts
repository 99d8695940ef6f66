// Protected Resource Metadata (RFC 9728): the document an OAuth client reads first, at the path-inserted well-known URL
// and at the root one. Public and cacheable: any origin may read it (a browser-based client too).
import type { ParleyServer } from '../engine';

/** The well-known prefix of Protected Resource Metadata (RFC 9728 §3). */
const METADATA_PATH = '/.well-known/oauth-protected-resource';

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

const ALLOW = 'GET, HEAD, OPTIONS';
const CORS = { 'access-control-allow-origin': '*' };

/** True for the paths the metadata is served at: the root well-known URL and the one with the resource's path. */
export function isMetadataPath(server: ParleyServer, path: string): boolean {
  if (!server.config.auth || authorizationServersOf(server).length === 0) return false;
  if (path === METADATA_PATH) return true;
  const { pathname } = new URL(server.config.auth.resource ?? `http://x${server.config.http.path}`);
  return path === `${METADATA_PATH}${pathname}`;
}

/** The metadata for `resource` (the one the request reached), or the answer to a preflight, or 405. */
export function resourceMetadata(server: ParleyServer, request: Request, resource: string): Response {
  if (request.method === 'OPTIONS')
    return new Response(null, {
      status: 204,
      headers: { ...CORS, 'access-control-allow-methods': ALLOW, 'access-control-allow-headers': '*', 'access-control-max-age': '86400' },
    });
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return server.respond.problem(405, 'method_not_allowed', `Method not allowed: use ${ALLOW}`, { ...CORS, allow: ALLOW });
  const auth = server.config.auth!;
  const document: Record<string, unknown> = {
    resource,
    authorization_servers: authorizationServersOf(server),
    bearer_methods_supported: ['header'],
    resource_name: auth.resourceName ?? server.info.title ?? server.info.name,
  };
  if (auth.scopesSupported) document.scopes_supported = listedScopes(auth.scopesSupported);
  if (auth.resourceDocumentation) document.resource_documentation = auth.resourceDocumentation;
  const headers = { ...CORS, 'cache-control': 'public, max-age=3600' };
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers: { ...headers, 'content-type': 'application/json' } });
  return server.respond.json(document, 200, headers);
}
