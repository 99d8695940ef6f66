// This server's identity as an OAuth resource (RFC 8707, RFC 9728): the canonical URL of its MCP endpoint.
import type { ParleyServer } from '../engine';
import { publicOrigin } from './public-url';

/** The resource a request reached: `auth.resource` when set, else the public origin plus `http.path`. */
export function resourceOf(request: Request, server: ParleyServer): string {
  return server.config.auth?.resource ?? `${publicOrigin(request, server.config.http)}${server.config.http.path}`;
}
