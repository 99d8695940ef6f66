// Next.js (App Router) and Vercel: the MCP endpoint at /api/mcp. On a Node function (the default) it serves every
// client; on the edge runtime it needs Redis over HTTP, or `edge: 'stateless'` for 2026-07-28 clients alone as in
// src/worker.ts (Parley's docs/deployment.md, "On the edge, with Upstash").
import { createVercelHandler } from 'parley-mcp/vercel';
import { config } from '../../../src/server';

const handler = createVercelHandler(config);
export { handler as GET, handler as POST, handler as DELETE };
