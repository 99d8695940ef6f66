// parley dev over HTTP: the server's fetch handler on 127.0.0.1, with every exchange shown in the dev log.
import { observeExchanges, type ExchangeLog, listenError, listenFetch, NODE_PLATFORM } from '../adapters';
import { startFetchHandler } from '../app';
import type { ParleyConfigInput } from '../model';

/**
 * Resolves with the URL once the server listens; loopback only, so other Host headers are refused. With no public URL
 * set, the resource a token must name is this socket's (as under serve()), never the loopback Host a client wrote.
 */
export async function serveDevHttp(config: ParleyConfigInput, port: number, log: ExchangeLog): Promise<string> {
  const { handler, server } = await startFetchHandler({ ...config, http: { ...config.http, allowedHosts: [] } }, NODE_PLATFORM);
  const listen = { host: '127.0.0.1', port };
  const listening = await listenFetch(observeExchanges(handler, log), listen).catch((error: unknown) =>
    Promise.reject(listenError(error, listen, 'pass --port N (0 picks a free one), or set PORT')),
  );
  if (!server.config.http.publicUrl && !server.config.http.trustProxy) server.config.http.publicUrl = `http://${listening.address}`;
  return `http://${listening.address}${server.config.http.path}`;
}
