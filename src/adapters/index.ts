// The adapters floor's door: what the floors above may use of it.
export { ExchangeLog, clip, isRecord, observeExchanges } from './exchange-log';
export { listenError, listenFetch } from './node-listen';
export { serveStdio } from './stdio';
export { NODE_PLATFORM } from './node-platform';
