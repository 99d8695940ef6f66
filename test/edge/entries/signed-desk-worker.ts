// The help-desk Worker with callers who sign in (auth.secret from a binding), for the fallback's caller binding.
import { createWorker } from 'parley-mcp/cloudflare';
import { config } from '../../../examples/help-desk/server';

export default createWorker((env) => ({
  ...config,
  elicitation: { ...config.elicitation, edge: 'stateless' },
  auth: { secret: String(env.AUTH_SECRET) },
}));
