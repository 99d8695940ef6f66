// Two isolates of one Worker, for edge tests that span isolates: the entry bundled once (no node: imports), run in two
// workerd instances (miniflare) with the same bindings, so they share only the store those bindings name. And a
// parley-mcp client whose tools/call goes to isolate A and every tasks/* request to isolate B.
import { McpClient } from 'parley-mcp/client';
import { expect } from 'vitest';
import { bundleWorker } from './bundle';
import type { UpstashServer } from './upstash-server';
import { startWorker, type RunningWorker } from './workerd';

export interface WorkerPair {
  a: RunningWorker;
  b: RunningWorker;
  /** Each isolate's MCP endpoint. */
  urls: { a: URL; b: URL };
  dispose(): Promise<void>;
}

/** The bindings that put a Worker's store in Redis over HTTP: the Upstash REST test server on a real redis-server. */
export const upstashBindings = (upstash: UpstashServer) => ({
  UPSTASH_REDIS_REST_URL: upstash.url,
  UPSTASH_REDIS_REST_TOKEN: upstash.token,
});

export async function startWorkerPair(entry: string, bindings: Record<string, string>): Promise<WorkerPair> {
  const { code, nodeImports } = await bundleWorker(entry);
  expect(nodeImports).toEqual([]);
  const [a, b] = [startWorker(code, bindings), startWorker(code, bindings)];
  const dispose = async () => {
    await Promise.all([a.dispose(), b.dispose()]);
  };
  try {
    const [readyA, readyB] = await Promise.all([a.mf.ready, b.mf.ready]);
    return { a, b, urls: { a: new URL('/mcp', readyA), b: new URL('/mcp', readyB) }, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** A client of the pair whose tools/call goes to A and every tasks/* to B; `routed` names each request's method and isolate. */
export function splitTasksClient(pair: WorkerPair): { client: McpClient; routed: string[] } {
  const routed: string[] = [];
  const client = new McpClient({
    url: pair.urls.a,
    tasks: { minPollMs: 20 },
    fetch: (request) => {
      const method = request.headers.get('mcp-method') ?? '';
      const to = method.startsWith('tasks/') ? 'b' : 'a';
      routed.push(`${method} ${to}`);
      return fetch(new Request(pair.urls[to], request));
    },
  });
  return { client, routed };
}
