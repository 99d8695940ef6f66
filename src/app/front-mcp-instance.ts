// FrontMcpInstance: the docs' static entry points, kept as thin aliases of the functions that do the work.
import { createFetchHandler, type FetchHandler } from './fetch-handler';
import { createDirect, type DirectServer } from './direct';
import type { ServerInput } from './build-server';

export class FrontMcpInstance {
  /** Same as createFetchHandler(config). */
  static createFetchHandler(input: ServerInput): FetchHandler {
    return createFetchHandler(input);
  }

  /** Same as createDirect(config): the server in this process, called with `callTool(name, args, { authContext })`. */
  static createDirect(input: ServerInput): Promise<DirectServer> {
    return createDirect(input);
  }
}
