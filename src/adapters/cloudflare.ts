// Cloudflare Workers: a module Worker's default export. workerd takes a function export for a class, so this is an object.
import { createFetchHandler, type FetchHandler } from '../http/handler';
import type { ServerInput } from '../server/instance';

export interface WorkerExport {
  fetch: FetchHandler['fetch'];
}

/**
 * The Worker entry for a server; env bindings (VAULT_SECRET, …) are read per request.
 * @example export default createWorker(config);
 */
export function createWorker(input: ServerInput | FetchHandler): WorkerExport {
  const handler = typeof input === 'function' && 'fetch' in input ? (input as FetchHandler) : createFetchHandler(input as ServerInput);
  return { fetch: handler.fetch };
}
