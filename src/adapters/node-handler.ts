// Mounting a Parley server in a Node app (Express, Fastify through its raw request, NestJS): a (req, res, next?)
// handler that answers as serve() does (the same reading, limits, streams and shutdown), on the app's own server.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CloseOptions, type FetchHandler, startFetchHandler, configOf, type ServerInput } from '../app';
import { INBOX_BASE } from '../protocol';
import { answerIncoming, declaresMore, type Answering } from './node-listen';
import { NODE_PLATFORM } from './node-platform';

/** A request as an app hands it on: Express adds `originalUrl` (the path before a mount) and `body` (once parsed). */
type AppRequest = IncomingMessage & { originalUrl?: string; body?: unknown };

export interface NodeHandler {
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  /** Announces list changes and resource updates to open subscriptions/listen streams. */
  changes: FetchHandler['changes'];
  /**
   * Stops serving, as `serve()`'s close does: new sessions and calls get 503, waiting questions may still be answered
   * for `graceMs`, then the calls still running end. The app closes its own server after.
   */
  close(options?: CloseOptions): Promise<void>;
}

// Every path it is mounted at is the MCP endpoint, but the inbox's own routes.
const notInbox = (path: string) => !path.startsWith(`${INBOX_BASE}/`);
const MOUNTED = { mounted: true };

/**
 * Builds the server (a config that does not validate, or a store that cannot open, rejects here) and returns the
 * handler to mount: `app.all('/mcp', handler)` in Express, or hand it Fastify's `request.raw` and `reply.raw`. A body
 * the app already parsed (`express.json()`) is taken as it is; otherwise the handler reads it, within
 * `http.maxBodyBytes`.
 * @example const mcp = await createNodeHandler(Server); app.all('/mcp', mcp);
 */
export async function createNodeHandler(input: ServerInput): Promise<NodeHandler> {
  const { handler } = await startFetchHandler(configOf(input), NODE_PLATFORM);
  const mounted = (req: AppRequest, res: ServerResponse, next?: (error?: unknown) => void) => {
    const how: Answering = {
      address: req.headers.host === undefined ? localAddress(req) : '',
      fast: notInbox,
      target: req.originalUrl,
      options: MOUNTED,
      read:
        req.body !== undefined && req.readableEnded
          ? (limit) => Promise.resolve(declaresMore(req, limit) ? undefined : parsedBody(req.body, limit))
          : undefined,
      fail: next,
    };
    answerIncoming(handler, req, res, how);
  };
  return Object.assign(mounted, { changes: handler.changes, close: (options?: CloseOptions) => handler.close(options) });
}

/** The body an app parsed, as text again: a string or Buffer as it came, JSON re-serialized; undefined past `limit`. */
function parsedBody(body: unknown, limit: number): string | undefined {
  const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body);
  return Buffer.byteLength(text) > limit ? undefined : text;
}

function localAddress(req: IncomingMessage): string {
  const { localAddress: host = '127.0.0.1', localPort } = req.socket;
  return `${host.includes(':') ? `[${host}]` : host}:${localPort}`;
}
