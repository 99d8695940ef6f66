// What auth serves at the server's own origin, public and before any Origin check: Protected Resource Metadata
// (RFC 9728) and the copy of the authorization server's metadata that 2025-03-26 clients look for.
import type { ParleyServer } from '../engine';
import { AS_METADATA_PATH, authorizationServerMirror } from './as-metadata';
import { isMetadataPath, resourceMetadata } from './resource-metadata';

/** A request's answer when its path is one of these documents, else undefined. `resourceOf`: the resource it reached. */
type WellKnownRoute = (request: Request, path: string) => Response | Promise<Response> | undefined;

/** The documents' route for `server`, built once with its handler. */
export function wellKnownRoutes(server: ParleyServer, resourceOf: (request: Request) => string): WellKnownRoute {
  const mirror = authorizationServerMirror(server);
  return (request, path) => {
    if (isMetadataPath(server, path)) return resourceMetadata(server, request, resourceOf(request));
    if (mirror && path === AS_METADATA_PATH) return mirror(request);
    return undefined;
  };
}
