// Parley in a Next.js app's route files (test/fixtures/next-app): the MCP route's 401 points a client to the
// well-known route, which answers the metadata for the resource the MCP route is mounted at, at the path-inserted and
// the root location, for GET, HEAD and a preflight. Each route is called as Next calls it: (request, { params }).
import { describe, expect, it } from 'vitest';
import * as wellKnown from '../fixtures/next-app/app/.well-known/oauth-protected-resource/[[...path]]/route';
import * as mcp from '../fixtures/next-app/app/api/mcp/route';
import { mcpRequest } from '../helpers/requests';

/** A route file's exported method, as Next's app router types and calls it. */
type RouteHandler = (request: Request, context: { params: Promise<{ path?: string[] }> }) => Promise<Response>;
const route = (handler: RouteHandler, path?: string[]) => (request: Request) => handler(request, { params: Promise.resolve({ path }) });

const ORIGIN = 'https://app.example';

describe('Parley in Next.js route files', () => {
  it("answers the MCP route's 401 with the well-known URL the well-known route serves, naming the mounted resource", async () => {
    const challenge = await route(mcp.POST)(mcpRequest('tools/list', {}, { url: `${ORIGIN}/api/mcp` }));
    expect(challenge.status).toBe(401);
    const pointer = /resource_metadata="([^"]+)"/.exec(challenge.headers.get('www-authenticate') ?? '')?.[1];
    expect(pointer).toBe(`${ORIGIN}/.well-known/oauth-protected-resource/api/mcp`);

    const metadata = await route(wellKnown.GET, ['api', 'mcp'])(new Request(pointer!));
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('access-control-allow-origin')).toBe('*');
    expect(await metadata.json()).toEqual({
      resource: `${ORIGIN}/api/mcp`,
      authorization_servers: ['https://idp.example'],
      bearer_methods_supported: ['header'],
      resource_name: 'next-desk',
      scopes_supported: ['tickets:read'],
    });
  });

  it('answers at the root location (no path segments), HEAD without a body, and a browser preflight', async () => {
    const root = await route(wellKnown.GET)(new Request(`${ORIGIN}/.well-known/oauth-protected-resource`));
    expect(((await root.json()) as { resource: string }).resource).toBe(`${ORIGIN}/api/mcp`);
    const head = await route(wellKnown.HEAD, ['api', 'mcp'])(
      new Request(`${ORIGIN}/.well-known/oauth-protected-resource/api/mcp`, { method: 'HEAD' }),
    );
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const preflight = await route(wellKnown.OPTIONS, ['api', 'mcp'])(
      new Request(`${ORIGIN}/.well-known/oauth-protected-resource/api/mcp`, {
        method: 'OPTIONS',
        headers: { origin: 'https://inspector.example', 'access-control-request-method': 'GET' },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('answers a path under the well-known route that names no resource of this server with 404, not the metadata', async () => {
    const other = await route(wellKnown.GET, ['api', 'other'])(new Request(`${ORIGIN}/.well-known/oauth-protected-resource/api/other`));
    expect(other.status).toBe(404);
  });
});
