// The help-desk server as a Worker: the same config, served by the fetch handler.
import { createWorker } from 'parley/cloudflare';
import { config } from '../help-desk/server';

export default createWorker(config);
