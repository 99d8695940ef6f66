// The help-desk server as a Worker: the same config, served by the fetch handler.
import { createWorker } from 'parley/cloudflare';
import { config } from '../help-desk/server';

// A Worker has no store for clients before 2026-07-28 to wait in; 'stateless' serves 2026-07-28 rounds, which need none.
export default createWorker({ ...config, elicitation: { ...config.elicitation, edge: 'stateless' } });
