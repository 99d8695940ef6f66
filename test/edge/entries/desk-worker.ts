// The help-desk Worker with its elicitation options from the env binding ELICITATION (JSON): one bundle for each case
// the edge tests need. The server is still built once per isolate, on its first request.
import { createWorker, type WorkerExport } from 'parley-mcp/cloudflare';
import { enableRedisHttp } from 'parley-mcp/redis-http';
import { config } from '../../../examples/help-desk/server';

enableRedisHttp(); // the cases that name { provider: 'upstash' }

let worker: WorkerExport | undefined;

export default {
  fetch(request: Request, env: Record<string, unknown>, ctx: unknown): Promise<Response> {
    worker ??= createWorker({ ...config, elicitation: JSON.parse(String(env.ELICITATION ?? '{"enabled":true}')) });
    return worker.fetch(request, env, ctx);
  },
};
