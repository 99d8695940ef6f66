// The same Parley server as a Worker, for workerd (row 5). Elicitation off: on the edge it needs a distributed store,
// and row 5 measures the simple call only.
import { createWorker } from 'parley-mcp/cloudflare';
import { benchConfig } from './parley-app';

export default createWorker({ ...benchConfig(), elicitation: { enabled: false } });
