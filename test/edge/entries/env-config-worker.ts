// A Worker whose config is a function of its env: the MCP path comes from a binding, and without it the function throws.
import { createWorker } from 'parley-mcp/cloudflare';

export default createWorker((env) => {
  if (typeof env.MCP_PATH !== 'string') throw new Error('MCP_PATH is not bound');
  return { info: { name: 'from-env', version: '1.0.0' }, http: { path: env.MCP_PATH } };
});
