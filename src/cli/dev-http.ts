// parley dev over HTTP: the server's fetch handler on 127.0.0.1, with every exchange shown in the dev log.
import { observeExchanges, type ExchangeLog, listenError, listenFetch, NODE_PLATFORM } from '../adapters';
import { createFetchHandler } from '../app';
import type { ParleyConfigInput } from '../model';

/** Resolves with the URL once the server listens; loopback only, so other Host headers are refused. */
export function serveDevHttp(config: ParleyConfigInput, port: number, log: ExchangeLog): Promise<string> {
  const handler = createFetchHandler({ ...config, http: { ...config.http, allowedHosts: [] } }, NODE_PLATFORM);
  const path = config.http?.path ?? '/mcp';
  const listen = { host: '127.0.0.1', port };
  return listenFetch(observeExchanges(handler, log), listen).then(
    (listening) => `http://${listening.address}${path}`,
    (error: unknown) => Promise.reject(listenError(error, listen, 'pass --port N (0 picks a free one), or set PORT')),
  );
}
