// The help-desk Worker with its elicitation options from the env binding ELICITATION (JSON): one bundle for each case
// the edge tests need. The server is still built once per isolate, on its first request.
import { createWorker, type WorkerExport } from 'parley/cloudflare';
import { config } from '../../../examples/help-desk/server';

let worker: WorkerExport | undefined;

export default {
  fetch(request: Request, env: Record<string, unknown>, ctx: unknown): Promise<Response> {
    worker ??= createWorker({ ...config, elicitation: JSON.parse(String(env.ELICITATION ?? '{"enabled":true}')) });
    return worker.fetch(request, env, ctx);
  },
};
