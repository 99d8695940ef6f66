// The authorization server's metadata at the MCP server's origin, for 2025-03-26 clients, which look for it there
// (the path /.well-known/oauth-authorization-server). A copy of the first authorization server's own document, not a
// redirect: the official SDK's discovery does not follow one. Read on first use and kept ten minutes.
import type { ParleyServer } from '../engine';
import { discoverIssuer } from './discovery';
import { authorizationServersOf } from './resource-metadata';

export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';
const KEEP_MS = 10 * 60_000;
const HEADERS = { 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=600' };

/** The route answering the copy, or undefined when the server names no authorization server (no `auth`, or a bare secret). */
export function authorizationServerMirror(server: ParleyServer): ((request: Request) => Promise<Response>) | undefined {
  const [issuer] = authorizationServersOf(server);
  if (issuer === undefined) return undefined;
  // The document as JSON text, serialized once when read (never per GET).
  let kept: { json: Promise<string>; until: number } | undefined;
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return server.respond.problem(405, 'method_not_allowed', 'Method not allowed: use GET, HEAD', { ...HEADERS, allow: 'GET, HEAD' });
    if (!kept || kept.until < Date.now())
      kept = { json: discoverIssuer(issuer).then((document) => JSON.stringify(document)), until: Date.now() + KEEP_MS };
    try {
      const json = await kept.json;
      return new Response(request.method === 'HEAD' ? null : json, { headers: { ...HEADERS, 'content-type': 'application/json' } });
    } catch (error) {
      kept = undefined; // asked again by the next client
      server.logger.error(`The authorization server's metadata could not be read for a 2025-03-26 client: ${(error as Error).message}`);
      return server.respond.problem(
        503,
        'temporarily_unavailable',
        "The authorization server's metadata could not be read; try again shortly",
        {
          'retry-after': '5',
          'cache-control': 'no-store',
        },
      );
    }
  };
}
