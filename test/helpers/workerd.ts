// Runs a bundled Worker in workerd (miniflare) for a test: requests in, responses and the Worker's log out.
import { Miniflare } from 'miniflare';
import type { Readable } from 'node:stream';

export interface RunningWorker {
  mf: Miniflare;
  /** Everything the Worker wrote to stdout and stderr so far. */
  output(): string;
  /** Dispatches a Request built in Node (as tests build them) to the Worker. */
  send(request: Request): Promise<Response>;
  dispose(): Promise<void>;
}

export function startWorker(script: string, bindings: Record<string, string> = {}): RunningWorker {
  let output = '';
  const collect = (stream: Readable) => stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2026-04-01',
    cf: false, // otherwise miniflare downloads cf.json
    bindings,
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      collect(stdout);
      collect(stderr);
    },
  });
  return {
    mf,
    output: () => output,
    send: async (request) => {
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
      return (await mf.dispatchFetch(request.url, {
        method: request.method,
        headers: Object.fromEntries(request.headers),
        body,
      })) as unknown as Response;
    },
    dispose: () => mf.dispose(),
  };
}
