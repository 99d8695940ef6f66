// The composition root's door: building a server from its config, and the handlers and in-process clients built on it.
export { buildServer, configOf } from './build-server';
export type { ServerInput } from './build-server';
export { connect, createDirect } from './direct';
export type { ConnectedClient, DirectAnswer, DirectCallOptions, DirectElicitationHandler, DirectServer } from './direct';
export { createFetchHandler, createStartingHandler, serverStartFailed, startFetchHandler } from './fetch-handler';
export type { CloseOptions, FetchHandler, HandlerOptions } from './fetch-handler';
export { FrontMcpInstance } from './front-mcp-instance';
