// Serving a Parley server from Node on node:http: loopback by default, with the Host checked.
import { createFetchHandler, type FetchHandler } from '../http/handler';
import { useNativeAead, useNativeHmac } from '../crypto';
import { usePlainResponses } from '../http/respond';
import { useTurnEnd } from '../runtime';
import { configOf, type ServerInput } from '../server/instance';
import { nodeAead } from './node-aead';
import { nodeHmac } from './node-hmac';
import { listenFetch } from './node-listen';
import { plainResponse } from './node-response';
import { atNodeTurnEnd } from './node-turn';

// JSON answers are written to the socket as they are, with no Fetch Response built for them, all of a turn's together.
usePlainResponses(plainResponse);
useTurnEnd(atNodeTurnEnd);

// requestState is signed and sealed with node:crypto here: the same bytes as WebCrypto's, with no thread-pool round trip per request.
useNativeHmac(nodeHmac);
useNativeAead(nodeAead);

export interface NodeServeOptions {
  port?: number;
  /** Default 127.0.0.1: only this machine can connect. */
  host?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  /** Announces list changes and resource updates to open subscriptions/listen streams. */
  changes: FetchHandler['changes'];
  close(): Promise<void>;
}

/**
 * Serves the server over HTTP on Node and resolves once it listens.
 * @example const { url } = await serve(Server, { port: 3000 }); // http://127.0.0.1:3000/mcp
 */
export async function serve(input: ServerInput, options: NodeServeOptions = {}): Promise<RunningServer> {
  const config = configOf(input);
  const host = options.host ?? config.http?.host ?? '127.0.0.1';
  const port = options.port ?? config.http?.port ?? Number(process.env.PORT ?? 3000);
  const loopback = host === '127.0.0.1' || host === 'localhost' || host === '::1';
  // Bound to loopback, a request naming another Host is a DNS-rebinding attempt.
  const http = { ...config.http, allowedHosts: config.http?.allowedHosts ?? (loopback ? [] : undefined) };
  const handler = createFetchHandler({ ...config, http });
  // An MCP POST skips the Fetch Request: its body is read from the socket, far cheaper than a web stream.
  const listening = await listenFetch(handler, { host, port, fastPaths: new Set([http.path ?? '/mcp', '/']) });
  return { url: `http://${listening.address}${http.path ?? '/mcp'}`, port: listening.port, changes: handler.changes, close: listening.close };
}
