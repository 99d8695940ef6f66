// Next.js (App Router) and Vercel: the MCP endpoint at /api/mcp. On a Node function (the default) it serves every
// client; with `export const runtime = 'edge'` use the Worker's config ('stateless', see src/worker.ts).
import { createVercelHandler } from 'parley-mcp/vercel';
import { config } from '../../../src/server';

const handler = createVercelHandler(config);
export { handler as GET, handler as POST, handler as DELETE };
