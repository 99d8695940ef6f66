// Vercel (edge runtime or Node functions): a route handler that is the fetch handler; env comes from process.env.
import type { FetchHandler, ServerInput } from '../app';
import { handlerOf } from './handler-of';

/**
 * One handler for every method of the route: the server is built once per isolate, on its first request. It serves
 * the path its route is mounted at (app/api/mcp/route.ts: /api/mcp) without `http.path`.
 * @example const handler = createVercelHandler(config); export { handler as GET, handler as POST, handler as DELETE }; export const runtime = 'edge';
 */
export function createVercelHandler(input: ServerInput | FetchHandler): (request: Request) => Promise<Response> {
  const handler = handlerOf(input);
  return (request) => handler(request, { mounted: true });
}
