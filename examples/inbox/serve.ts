// Serves the inbox example on 127.0.0.1:$PORT (default 3000). AUTH_SECRET makes callers sign in with HS256 tokens
// (a persistent question belongs to a signed-in caller or a session); INBOX_LINKS sets persistent.inboxLinks.
import { serve } from 'parley-mcp/node';
import type { InboxLinks } from 'parley-mcp';
import { config } from './server';

const secret = process.env.AUTH_SECRET;
const inboxLinks = (process.env.INBOX_LINKS ?? 'terminal') as InboxLinks;
const { url } = await serve(
  { ...config, ...(secret ? { auth: { secret } } : {}), elicitation: { enabled: true, persistent: { storage: { type: 'memory' }, inboxLinks } } },
  { port: Number(process.env.PORT ?? 3000) },
);
console.error(`[parley] Serving ${url}; call inbox_link to get a one-time link to the inbox`);
