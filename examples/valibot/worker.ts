// The Valibot server as a Worker: the same config, served by the fetch handler.
import { createWorker } from 'parley-mcp/cloudflare';
import { config } from './server';

export default createWorker(config);
