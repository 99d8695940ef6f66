// The Worker entry (wrangler.toml's main). 'stateless': clients on 2026-07-28 answer questions in rounds that need no
// store; older clients' questions need Redis over HTTP (see the README).
import { createWorker } from 'parley-mcp/cloudflare';
import { config } from './server';

export default createWorker({ ...config, elicitation: { ...config.elicitation, edge: 'stateless' } });
