// createFetchHandler: a Request in, a Response out, on Web APIs only. The server is built on the first request.
import { createChangeHub, type ChangeHub, type ListChanges, type AuthInfo, type SdkAuthInfo, toCaller } from '../model';
import { buildServer, configOf, type ServerInput } from './build-server';
import { closeServer, shuttingDown, type CloseOptions, type KeepAlive, type ParleyServer, type Platform } from '../engine';
import { createRedactor, secretsIn, type EnvSource } from '../runtime';
import { fetchResponder, HEADER, INBOX_BASE, methodNotAllowed, wireError } from '../protocol';
import {
  handlePost,
  handleLegacyDelete,
  handleLegacyGet,
  checkRequestOrigin,
  clientAddress,
  corsOrigin,
  isBrowserVisit,
  landingPage,
  preflight,
  probeAnswer,
  publicOrigin,
  resourceOf,
  storesAnswer,
  withCors,
} from '../http';
import { probePaths } from './probes';
import { wellKnownRoutes } from '../auth';
export type { CloseOptions } from '../engine';

export interface HandlerOptions {
  /**
   * The caller, when the host verified it itself: Parley's AuthInfo, or the official SDK's (`req.auth` from
   * `withMcpAuth` or `requireBearerAuth`), whose `extra.sub` (else its client) is the subject.
   */
  auth?: AuthInfo | SdkAuthInfo;
  /** The platform's environment bindings (a Worker's env). */
  env?: EnvSource;
  /** The platform's execution context (a Worker's ctx), for work that outlives the response. */
  ctx?: KeepAlive;
  /**
   * Reads the request body when the host can do it faster than `request.text()` (parley-mcp/node reads the socket);
   * resolves undefined once the body passes `limit` bytes, and rejects with a TypeError (a fatal TextDecoder's) when it
   * is not UTF-8.
   */
  readBody?: (limit: number) => Promise<string | undefined>;
  /**
   * The platform routed this request here (a Vercel route file): it is the MCP endpoint at whatever path the route
   * is mounted, as well as at `http.path`; the inbox's `/_frontmcp/` routes keep theirs, and a `/.well-known/` path is
   * never the endpoint.
   */
  mounted?: boolean;
  /**
   * The caller's address as the host's connection saw it (Node's socket; Bun's `server.requestIP(request)`, Deno's
   * `info.remoteAddr`), recorded as client.address on the request span. `http.clientAddressHeader` names a trusted
   * proxy's header that takes its place.
   */
  client?: string;
}

export interface FetchHandler {
  (request: Request, options?: HandlerOptions): Promise<Response>;
  /** The Workers-style entry point. workerd takes a function default export for a class, so export `{ fetch: handler.fetch }` (or use parley-mcp/cloudflare). */
  fetch(request: Request, env?: unknown, ctx?: unknown): Promise<Response>;
  /**
   * Announces list changes and resource updates to this process's open subscriptions/listen streams.
   * @example handler.changes.toolsListChanged();
   */
  changes: ListChanges;
  /**
   * Shuts down gracefully: older clients get no new sessions or calls (503), questions waiting here may still be
   * answered for `graceMs` (10 s), then the calls left end with a JSON-RPC error (-31002) and the store closes.
   * A host calls it on SIGTERM before it closes its listener.
   * @example process.on('SIGTERM', () => void handler.close({ graceMs: 5_000 }).then(() => server.close()));
   */
  close(options?: CloseOptions): Promise<void>;
}

type Route = (request: Request, options: HandlerOptions) => Promise<Response> | Response;

/** The path of a request URL, without parsing the whole URL. */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const query = url.indexOf('?', start);
  const hash = url.indexOf('#', start);
  const end = Math.min(query === -1 ? url.length : query, hash === -1 ? url.length : hash);
  return url.slice(start, end);
}

/** The MCP endpoint by method: POST for every client; GET and DELETE only for sessions of clients before 2026-07-28. */
function mcpRoute(server: ParleyServer, request: Request, options: HandlerOptions): Promise<Response> | Response {
  const session = request.headers.has(HEADER.sessionId); // read once: the route's, and the POST's era
  // A host's caller in the SDK's shape becomes Parley's; one in no shape it knows is kept as it came.
  const auth = options.auth && ((toCaller(options.auth) ?? options.auth) as AuthInfo);
  const postOnly = () => server.respond.error(null, methodNotAllowed('POST'), { allow: 'POST' });
  switch (request.method) {
    case 'POST':
      return handlePost(server, request, {
        auth,
        session,
        readBody: options.readBody,
        keepAlive: options.ctx,
        client: clientAddress(request, server.config.http.clientAddressHeader, options.client),
      });
    case 'GET':
      if (session) return handleLegacyGet(server, request, auth);
      return isBrowserVisit(request) ? landingPage(server, request) : postOnly();
    case 'DELETE':
      return session ? handleLegacyDelete(server, request, auth) : postOnly();
    default:
      return postOnly();
  }
}

function buildRoutes(server: ParleyServer): Route {
  const http = server.config.http;
  const mcpPaths = new Set([http.path, '/']);
  // The inbox's routes (persistent questions) are the only ones off the MCP path.
  const inbox = server.questions?.routes();
  const wellKnown = wellKnownRoutes(server, (request) => resourceOf(request, server));
  // A handler mounted at another path (an existing app's /api/mcp) is told where it answers and how to move it.
  const elsewhere = `This server answers MCP at ${http.path}, not at this path: set http.path in its config to the path it is mounted at, or mount it at ${http.path}`;
  return (request, options) => {
    const path = pathOf(request.url);
    // Protected Resource Metadata is public, for any origin: it comes before the Origin and Host checks.
    const document = wellKnown(request, path);
    if (document) return document;
    const origin = request.headers.get('origin'); // read once: the Origin check's and CORS's
    const problem = checkRequestOrigin(request, origin, http);
    if (problem) {
      server.logger.warn(`Refused a request: ${problem}`);
      return server.respond.error(null, wireError('FORBIDDEN', `Forbidden: ${problem}`));
    }
    if (server.questions) server.questions.origin = publicOrigin(request, http); // inbox links point where the server is reached
    // Mounted, every path is the MCP endpoint but the inbox's and a well-known one: a route file for the metadata that
    // gets another resource's path answers 404, as RFC 9728 clients expect, not the endpoint's 405.
    if (mcpPaths.has(path) || (options.mounted && !path.startsWith(`${INBOX_BASE}/`) && !path.startsWith('/.well-known/'))) {
      // A browser's request from a listed origin (none without http.cors): other clients send no Origin and skip this.
      const cors = corsOrigin(request, origin, http);
      if (cors === undefined) return mcpRoute(server, request, options);
      if (request.method === 'OPTIONS') return preflight(request, cors, http);
      return Promise.resolve(mcpRoute(server, request, options)).then((response) => withCors(response, cors, http));
    }
    return inbox && path.startsWith(`${INBOX_BASE}/`)
      ? inbox.fetch(request, {
          origin: publicOrigin(request, http),
          keepAlive: options.ctx,
          client: clientAddress(request, http.clientAddressHeader, options.client),
        })
      : server.respond.problem(404, 'not_found', elsewhere);
  };
}

/** The answer to every request while the server cannot start (its config, a store): the details are in the log. */
export const serverStartFailed = (): Response =>
  fetchResponder.problem(503, 'SERVER_START_FAILED', 'The server failed to start; see its log.');

/** What a failed build says, redacted: a driver's message may carry a URL's credentials or a password. */
function startFailure(input: ServerInput, env: EnvSource, error: unknown): string {
  let secrets: string[] = [];
  try {
    secrets = secretsIn(configOf(input), env);
  } catch {
    // no config to read secrets from: the rules alone redact
  }
  return createRedactor(secrets).text(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
}

/**
 * Creates the server's fetch handler, usable as `(request) => response`, with a Workers-style `fetch(request, env, ctx)`.
 * `platform` is for runtime adapters (parley-mcp/node passes its own); left out, the handler uses Web APIs only.
 * @example export default createFetchHandler({ info: { name: 'desk', version: '1.0.0' }, apps: [HelpDesk] });
 */
export function createFetchHandler(input: ServerInput, platform: Platform = {}): FetchHandler {
  return handlerOver(input, createChangeHub(), platform);
}

/** For adapters: the lazy handler, calling `onStart` with the server once it is built (a Worker's startup checks). */
export function createStartingHandler(input: ServerInput, onStart: (server: ParleyServer) => void): FetchHandler {
  return handlerOver(input, createChangeHub(), {}, undefined, onStart);
}

/**
 * For parley-mcp/node: builds the server now, rejecting with its error (a bad config fails `serve()`, not the first
 * request), and returns the handler over it with the built server, for the startup banner.
 */
export async function startFetchHandler(
  input: ServerInput,
  platform: Platform = {},
): Promise<{ handler: FetchHandler; server: ParleyServer }> {
  const changes = createChangeHub();
  let server: ParleyServer;
  try {
    server = await buildServer(input, undefined, changes, platform);
  } catch (error) {
    // The caller prints this: it carries the error's name and message, redacted, and no stack of Parley's internals.
    const failure = new Error(`Server failed to start: ${startFailure(input, undefined, error).replace(/^Error: /, '')}`);
    failure.stack = `Error: ${failure.message}`;
    throw failure;
  }
  return { handler: handlerOver(input, changes, platform, server), server };
}

function handlerOver(
  input: ServerInput,
  changes: ChangeHub,
  platform: Platform,
  prebuilt?: ParleyServer,
  onStart?: (server: ParleyServer) => void,
): FetchHandler {
  let built: ParleyServer | undefined = prebuilt;
  let route: Route | undefined = prebuilt && buildRoutes(prebuilt); // once built, requests skip the wait
  let ready: Promise<Route> | undefined;
  const start = (env?: EnvSource) =>
    (ready ??= buildServer(input, env, changes, platform).then(
      (server) => {
        built = server;
        onStart?.(server);
        return (route = buildRoutes(server));
      },
      (error: unknown) => {
        ready = undefined; // a failed build is tried again on the next request
        throw error;
      },
    ));

  const probes = probePaths(input);
  let closing = false;
  const logFailure = (env: EnvSource, error: unknown) =>
    console.error(`[parley] ERROR Server failed to start: ${startFailure(input, env, error)}`);
  // Ready: built (a probe starts the build, as any request does), not shutting down, and its stores answer.
  const isReady = async (env: EnvSource): Promise<boolean> => {
    if (!built && !closing)
      await start(env).catch((error: unknown) => {
        logFailure(env, error);
      });
    return !closing && built !== undefined && (await storesAnswer(built));
  };

  // Not async: on every request's path, an async function returning the route's promise would cost it a promise and
  // two ticks (the route's promise is returned as it is; a route's own answer or throw becomes one).
  const handle = (request: Request, options: HandlerOptions = {}): Promise<Response> => {
    // Probes come first, ahead of the Host and Origin checks; an MCP POST pays one comparison.
    if (!route || (probes.size > 0 && (request.method === 'GET' || request.method === 'HEAD'))) return slowHandle(request, options);
    try {
      return Promise.resolve(route(request, options));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const slowHandle = async (request: Request, options: HandlerOptions): Promise<Response> => {
    if (probes.size > 0 && (request.method === 'GET' || request.method === 'HEAD')) {
      const probe = probes.get(pathOf(request.url));
      if (probe) return probeAnswer(request, probe === 'live' || (await isReady(options.env)));
    }
    if (route) return route(request, options);
    let started: Route;
    try {
      started = await start(options.env);
    } catch (error) {
      logFailure(options.env, error);
      return serverStartFailed();
    }
    return started(request, options);
  };
  const handler = handle as FetchHandler;
  handler.fetch = (request, env, ctx) => handle(request, { env: env as EnvSource, ctx: ctx as HandlerOptions['ctx'] });
  handler.changes = changes;
  handler.close = async (options) => {
    closing = true; // readiness flips first, then the drain
    if (!built) await ready?.catch(() => undefined);
    // Older clients' calls and questions end in closeServer; 2026-07-28 calls get the same grace, then their error.
    if (built) await Promise.all([closeServer(built, options), built.running.end(options?.graceMs ?? 10_000, shuttingDown)]);
  };
  return handler;
}
