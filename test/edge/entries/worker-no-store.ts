// The help-desk Worker without elicitation.edge: 'stateless', to see the server refuse to start inside workerd.
import { createWorker } from 'parley-mcp/cloudflare';
import { config } from '../../../examples/help-desk/server';

export default createWorker(config);
