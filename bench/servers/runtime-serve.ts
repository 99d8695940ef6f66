// Serving a fetch handler with the runtime's own server (Bun.serve, Deno.serve) on 127.0.0.1 and a spare port.
declare const Bun:
  | { serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): { port: number; stop(): void } }
  | undefined;
declare const Deno:
  | {
      serve(
        options: { hostname: string; port: number; onListen: (address: { port: number }) => void },
        handler: (request: Request) => Promise<Response>,
      ): { shutdown(): Promise<void> };
      exit(code: number): never;
      addSignalListener(signal: string, listener: () => void): void;
    }
  | undefined;

/** Resolves with the port once the server listens; stops on SIGTERM. */
export function serveFetch(fetch: (request: Request) => Promise<Response>): Promise<number> {
  if (typeof Bun !== 'undefined') {
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch });
    process.once('SIGTERM', () => (server.stop(), process.exit(0)));
    return Promise.resolve(server.port);
  }
  if (typeof Deno !== 'undefined') {
    const deno = Deno;
    return new Promise((resolve) => {
      const server = deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => resolve(port) }, fetch);
      deno.addSignalListener('SIGTERM', () => void server.shutdown().then(() => deno.exit(0)));
    });
  }
  throw new Error('serveFetch runs on Bun or Deno; on Node the bench uses parley-mcp/node and node:http');
}
