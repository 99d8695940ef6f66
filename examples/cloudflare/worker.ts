// The help-desk server as a Worker: the same config, served by the fetch handler.
import { createWorker } from 'parley-mcp/cloudflare';
import { config } from '../help-desk/server';

// 'stateless': 2026-07-28 rounds need no store. Clients before 2026-07-28 need one to wait in: worker-redis-http.ts adds
// Redis over HTTP, and with it, this config serves them too (the store comes first; 'stateless' is for when there is none).
export default createWorker({ ...config, elicitation: { ...config.elicitation, edge: 'stateless' } });
