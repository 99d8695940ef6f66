// Serves the inbox example on 127.0.0.1:$PORT (default 3000). AUTH_SECRET makes callers sign in with HS256 tokens
// (a persistent question belongs to a signed-in caller or a session): `npx parley token --sub alice` signs one.
// INBOX_LINKS sets persistent.inboxLinks: run in the background (stderr not a terminal), it needs INBOX_LINKS=stderr,
// or inbox_link refuses to print its link. docs/elicitation.md: "Try it: examples/inbox".
import { serve } from 'parley-mcp/node';
import type { InboxLinks } from 'parley-mcp';
import { config } from './server';

const secret = process.env.AUTH_SECRET;
const inboxLinks = (process.env.INBOX_LINKS ?? 'terminal') as InboxLinks;
await serve(
  {
    ...config,
    ...(secret ? { auth: { secret } } : {}),
    elicitation: { enabled: true, persistent: { storage: { type: 'memory' }, inboxLinks } },
  },
  { port: Number(process.env.PORT ?? 3000) },
).catch((error: Error) => {
  console.error(`[parley] ✖ ${error.message}`);
  process.exit(1);
});
console.error(
  `[parley] Call inbox_link to get a one-time link to the inbox${secret ? '; callers need a token: npx parley token --sub alice' : ''}`,
);
