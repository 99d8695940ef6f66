// The help-desk Worker behind an identity provider: its metadata and challenges, served from workerd.
import { createWorker } from 'parley-mcp/cloudflare';
import { config } from '../../../examples/help-desk/server';

export default createWorker({
  ...config,
  elicitation: { ...config.elicitation, edge: 'stateless' },
  auth: { issuer: 'https://idp.example', requiredScopes: ['tickets:read'], scopesSupported: ['tickets:read', 'tickets:write'] },
});
