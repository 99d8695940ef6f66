// CORS for browser clients on the origins of http.allowedOrigins (the Origin check's list): preflights answered, the
// headers MCP clients send allowed, the ones they read exposed. Off unless http.cors is set, but for development: a
// page on a loopback origin calling a server reached on loopback. Never credentials with '*' (the config refuses it).
import { isLoopbackHost } from './guard';

/** The http settings this reads. */
interface CorsOptions {
  allowedOrigins: string[];
  cors: boolean | { credentials: boolean; maxAge: number };
}

// What MCP clients send: the two eras' headers, and a tool's Mcp-Param-* (matched by prefix below).
const ALLOWED = new Set([
  'authorization',
  'content-type',
  'accept',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'mcp-session-id',
  'last-event-id',
]);
const EXPOSED = 'Mcp-Session-Id, WWW-Authenticate';

/** A page on this machine (a Vite dev server on http://localhost:5173) calling a server reached on this machine. */
function bothOnLoopback(request: Request, origin: string): boolean {
  try {
    return isLoopbackHost(new URL(origin).hostname) && isLoopbackHost(new URL(request.url).hostname);
  } catch {
    return false; // an Origin that is no URL: the Origin check refuses it
  }
}

/**
 * The origin a request's CORS headers name ('*' for any), or undefined when it gets none. Without http.cors, a loopback
 * page calling a server reached on loopback gets them (development: both ends are this machine, and the Origin check
 * already lets the request in; CORS only lets the page read the answer), never with credentials. `origin`: the request's
 * Origin header, which the Origin check read.
 */
export function corsOrigin(request: Request, origin: string | null, http: CorsOptions): string | undefined {
  if (origin === null) return undefined;
  if (!http.cors) return bothOnLoopback(request, origin) ? origin : undefined;
  if (http.allowedOrigins.includes(origin)) return origin;
  return http.allowedOrigins.includes('*') ? '*' : undefined;
}

function baseHeaders(origin: string, http: CorsOptions): Record<string, string> {
  const headers: Record<string, string> = { 'access-control-allow-origin': origin, vary: 'Origin' };
  if (typeof http.cors === 'object' && http.cors.credentials) headers['access-control-allow-credentials'] = 'true';
  return headers;
}

/** A preflight's answer (204): the methods, and of the requested headers those an MCP client may send. */
export function preflight(request: Request, origin: string, http: CorsOptions): Response {
  const requested = (request.headers.get('access-control-request-headers') ?? '').split(',');
  const allowed = requested.map((h) => h.trim().toLowerCase()).filter((h) => ALLOWED.has(h) || h.startsWith('mcp-param-'));
  const headers = baseHeaders(origin, http);
  headers['access-control-allow-methods'] = 'GET, POST, DELETE';
  if (allowed.length > 0) headers['access-control-allow-headers'] = allowed.join(', ');
  headers['access-control-max-age'] = String(typeof http.cors === 'object' ? http.cors.maxAge : 600);
  headers.vary = 'Origin, Access-Control-Request-Headers';
  return new Response(null, { status: 204, headers });
}

/** The answer with CORS headers added, so the page may read it, its session id and its challenge. */
export function withCors(response: Response, origin: string, http: CorsOptions): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(baseHeaders(origin, http))) headers.set(name, value);
  headers.set('access-control-expose-headers', EXPOSED);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
