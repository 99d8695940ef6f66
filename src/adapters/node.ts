// Serving a Parley server from Node with @hono/node-server: loopback by default, with the Host checked.
import { serve as serveNode } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createFetchHandler, type FetchHandler } from '../http/handler';
import { configOf, type ServerInput } from '../server/instance';

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
  return new Promise((resolve, reject) => {
    const server = serveNode({ fetch: (request) => handler(request), port, hostname: host }, (info: AddressInfo) => {
      const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${shownHost}:${info.port}${http.path ?? '/mcp'}`,
        port: info.port,
        changes: handler.changes,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
    server.once('error', reject);
  });
}
