// createFetchHandler: a Request in, a Response out, on Web APIs only. The server is built on the first request.
import { Hono } from 'hono';
import { createChangeHub, type ListChanges } from '../server/changes';
import { buildServer, type ParleyServer, type ServerInput } from '../server/instance';
import type { AuthInfo } from '../server/tool-types';
import type { EnvSource } from '../runtime';
import { HEADER } from '../protocol';
import { handlePost } from './endpoint';
import { handleLegacyDelete, handleLegacyGet } from './legacy';
import { questionRoutes } from '../questions';
import { checkRequestOrigin } from './guard';
import { jsonResponse, methodNotAllowed } from './respond';

/** A platform's way to keep work alive after its response (a Worker's ctx.waitUntil). */
export interface KeepAlive {
  waitUntil(promise: Promise<unknown>): void;
}

export interface HandlerOptions {
  /** The caller, when the host verified it itself. */
  auth?: AuthInfo;
  /** The platform's environment bindings (a Worker's env). */
  env?: EnvSource;
  /** The platform's execution context (a Worker's ctx), for work that outlives the response. */
  ctx?: KeepAlive;
  /**
   * Reads the request body when the host can do it faster than `request.text()` (parley/node reads the socket);
   * resolves undefined once the body passes `limit` bytes.
   */
  readBody?: (limit: number) => Promise<string | undefined>;
}

export interface FetchHandler {
  (request: Request, options?: HandlerOptions): Promise<Response>;
  /** The Workers-style entry point. workerd takes a function default export for a class, so export `{ fetch: handler.fetch }` (or use parley/cloudflare). */
  fetch(request: Request, env?: unknown, ctx?: unknown): Promise<Response>;
  /**
   * Announces list changes and resource updates to this process's open subscriptions/listen streams.
   * @example handler.changes.toolsListChanged();
   */
  changes: ListChanges;
}

type Bindings = { server: ParleyServer; options: HandlerOptions };

function buildApp(server: ParleyServer): Hono<{ Bindings: Bindings }> {
  const app = new Hono<{ Bindings: Bindings }>();
  const http = server.config.http;
  app.use('*', async (c, next) => {
    const problem = checkRequestOrigin(c.req.raw, http);
    if (problem) {
      server.logger.warn(`Refused a request: ${problem}`);
      return jsonResponse({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Forbidden: ${problem}` } }, 403);
    }
    if (server.questions) server.questions.origin = new URL(c.req.url).origin; // inbox links point where the server is reached
    await next();
  });
  if (server.questions) app.route('/_frontmcp', questionRoutes(server.questions));
  for (const path of new Set([http.path, '/'])) {
    app.post(path, (c) => handlePost(c.env.server, c.req.raw, c.env.options.auth, c.env.options.readBody, c.env.options.ctx));
    // GET and DELETE belong to sessions of clients before 2026-07-28; without one they are not served.
    app.get(path, (c) => (c.req.raw.headers.has(HEADER.sessionId) ? handleLegacyGet(c.env.server, c.req.raw, c.env.options.auth) : methodNotAllowed('POST')));
    app.delete(path, (c) => (c.req.raw.headers.has(HEADER.sessionId) ? handleLegacyDelete(c.env.server, c.req.raw, c.env.options.auth) : methodNotAllowed('POST')));
    app.on(['PUT', 'PATCH'], path, () => methodNotAllowed('POST'));
  }
  app.notFound(() => jsonResponse({ error: 'not_found' }, 404));
  return app;
}

/**
 * Creates the server's fetch handler, usable as `(request) => response`, with a Workers-style `fetch(request, env, ctx)`.
 * @example export default createFetchHandler({ info: { name: 'desk', version: '1.0.0' }, apps: [HelpDesk] });
 */
export function createFetchHandler(input: ServerInput): FetchHandler {
  let ready: Promise<{ server: ParleyServer; app: Hono<{ Bindings: Bindings }> }> | undefined;
  const changes = createChangeHub();
  const start = (env?: EnvSource) =>
    (ready ??= buildServer(input, env, changes).then(
      (server) => ({ server, app: buildApp(server) }),
      (error: unknown) => {
        ready = undefined; // a failed build is tried again on the next request
        throw error;
      },
    ));

  const handle = async (request: Request, options: HandlerOptions = {}): Promise<Response> => {
    let built;
    try {
      built = await start(options.env);
    } catch (error) {
      console.error(`[parley] ERROR Server failed to start: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      return jsonResponse({ error: 'SERVER_START_FAILED', message: 'The server failed to start; see its log.' }, 503);
    }
    return built.app.fetch(request, { server: built.server, options });
  };
  const handler = handle as FetchHandler;
  handler.fetch = (request, env, ctx) => handle(request, { env: env as EnvSource, ctx: ctx as HandlerOptions['ctx'] });
  handler.changes = changes;
  return handler;
}
