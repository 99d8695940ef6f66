// Serving a Parley server from Node on node:http: loopback by default, with the Host checked.
import { startFetchHandler, type CloseOptions, type FetchHandler, configOf, type ServerInput } from '../app';
import type { LogLevel } from '../runtime';
import { ExchangeLog, observeExchanges } from './exchange-log';
import { startupBanner } from './node-banner';
import { describeSettings, setting } from './node-env';
import { listenError, listenFetch } from './node-listen';
import { NODE_PLATFORM } from './node-platform';

export { createNodeHandler, type NodeHandler } from './node-handler';
export { skillsFolder } from './skills-folder';

export interface NodeServeOptions {
  port?: number;
  /** Default 127.0.0.1: only this machine can connect. */
  host?: string;
  /** No startup banner (its warnings are still logged). `logging: { level: 'warn' }` in the config does the same. */
  quiet?: boolean;
  /**
   * A line per request on the log (info level), as `parley dev` prints it: method, tool, result type, round, HTTP
   * status and time. Off by default: it parses each body and answer a second time.
   */
  accessLog?: boolean;
  /**
   * Stop on SIGTERM and SIGINT (a deploy's stop, Ctrl-C): /readyz answers 503 at once, new calls get 503, calls in
   * flight get `graceMs` (default 10 s) to finish, then the process exits (0). A second signal exits at once.
   */
  handleSignals?: boolean | { graceMs?: number };
}

export interface RunningServer {
  url: string;
  port: number;
  /** Announces list changes and resource updates to open subscriptions/listen streams. */
  changes: FetchHandler['changes'];
  /**
   * Stops serving: new sessions and calls get 503 (`SHUTTING_DOWN`), questions already waiting may still be answered for
   * `graceMs` (default 10 s), then the calls still running end with that error and the listener closes. Call it on
   * SIGTERM (a deploy's stop): `process.on('SIGTERM', () => running.close().then(() => process.exit(0)))`.
   */
  close(options?: CloseOptions): Promise<void>;
}

/** The first SIGTERM or SIGINT closes gracefully, then exits; a second one exits at once. */
function stopOnSignals(close: RunningServer['close'], options: CloseOptions, logger: { info(message: string): void }): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info(`${signal}: shutting down (calls in flight get ${options.graceMs ?? 10_000} ms)`);
    void close(options).finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop).on('SIGINT', stop);
}

/**
 * Serves the server over HTTP on Node and resolves once it listens. The server is built first: a config that does not
 * validate, or a store that cannot open, rejects here. Prints a banner (the URL, revisions, tools, store, warnings).
 * @example const { url } = await serve(Server, { port: 3000 }); // http://127.0.0.1:3000/mcp
 */
export async function serve(input: ServerInput, options: NodeServeOptions = {}): Promise<RunningServer> {
  const config = configOf(input);
  // Code first, then the environment (a container's), then the default; the banner says which.
  const settings = {
    host: setting('HOST', options.host ?? config.http?.host, '127.0.0.1'),
    port: setting('PORT', options.port ?? config.http?.port, 3000),
    'log level': setting('LOG_LEVEL', config.logging?.level, 'info'),
    'public URL': setting('PUBLIC_URL', config.http?.publicUrl, undefined),
  };
  const host = settings.host.value;
  const port = settings.port.value;
  const loopback = host === '127.0.0.1' || host === 'localhost' || host === '::1';
  // Bound to loopback, a request naming another Host is a DNS-rebinding attempt.
  const http = {
    ...config.http,
    publicUrl: settings['public URL'].value,
    allowedHosts: config.http?.allowedHosts ?? (loopback ? [] : undefined),
  };
  const logging = { ...config.logging, level: settings['log level'].value as LogLevel };
  const { handler, server } = await startFetchHandler({ ...config, http, logging }, NODE_PLATFORM);
  const path = server.config.http.path;
  // An MCP POST skips the Fetch Request: its body is read from the socket, far cheaper than a web stream.
  const listen = { host, port, fastPaths: new Set([path, '/']) };
  // A log that keeps fields apart (JSON, or an app's logger) gets each line's request id, method, status and time.
  const structured = config.logging?.format === 'json' || config.logger !== undefined;
  const access = new ExchangeLog((line, fields) => (structured && fields ? server.logger.info(line, fields) : server.logger.info(line)));
  const fetch = options.accessLog ? observeExchanges(handler, access) : handler;
  const listening = await listenFetch(fetch, listen).catch(async (error: unknown) => {
    await server.elicitationStore?.backend.close(); // the built server's connections would keep the process alive
    throw listenError(error, listen, 'set PORT, or pass serve(config, { port })');
  });
  const url = `http://${listening.address}${path}`;
  // On loopback with no public URL, the resource a token must name is this socket's, never the Host a client wrote:
  // any loopback Host passes the guard, and one naming another local server's port would take that server's tokens.
  if (loopback && !server.config.http.publicUrl && !server.config.http.trustProxy)
    server.config.http.publicUrl = `http://${listening.address}`;
  const { banner, warnings } = startupBanner(server, { url, loopback, accessLog: options.accessLog === true });
  banner.push(`  ${'settings'.padEnd(13)}${describeSettings(settings)}`);
  if (!options.quiet) for (const line of banner) server.logger.info(line);
  for (const warning of warnings) server.logger.warn(warning);
  const close = async (closeOptions: CloseOptions = {}) => {
    const deadline = Date.now() + (closeOptions.graceMs ?? 10_000);
    await handler.close(closeOptions);
    await listening.close(deadline);
  };
  if (options.handleSignals) stopOnSignals(close, options.handleSignals === true ? {} : options.handleSignals, server.logger);
  return { url, port: listening.port, changes: handler.changes, close };
}
