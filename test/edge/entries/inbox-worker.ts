// A Worker with persistent questions and the inbox (inbox-app.ts), for the edge tests: its store is Durable Objects
// when the env binds PARLEY_STORE, else Redis over HTTP (UPSTASH_REDIS_REST_URL); INBOX=off leaves enableInbox() out,
// SIGN_IN=off enableOidcSignIn().
// Its scheduled handler is a Cron Trigger's.
import type { FetchHandler } from 'parley-mcp';
import { enableDurableObjects } from 'parley-mcp/cloudflare';
import { enableInbox, enableOidcSignIn } from 'parley-mcp/inbox';
import { enableRedisHttp } from 'parley-mcp/redis-http';
import { callerOf, inboxHandler } from './inbox-app';

export { ParleyStore } from 'parley-mcp/cloudflare';

let handler: FetchHandler | undefined;

export default {
  fetch(request: Request, env: Record<string, unknown>, ctx: { waitUntil(promise: Promise<unknown>): void }): Promise<Response> {
    if (!handler) {
      if (env.PARLEY_STORE) enableDurableObjects();
      else enableRedisHttp();
      if (env.INBOX !== 'off') enableInbox();
      if (env.SIGN_IN !== 'off') enableOidcSignIn();
      handler = inboxHandler(env);
    }
    return handler(request, { env: env as Record<string, string>, ctx, ...callerOf(request) });
  },
  // A Cron Trigger, as docs/deployment.md writes it: fetches the cron route, which sends the nudges that are due.
  scheduled(_controller: unknown, env: Record<string, unknown>, ctx: { waitUntil(promise: Promise<unknown>): void }): void {
    ctx.waitUntil(this.fetch(new Request('https://inbox-worker.example/_frontmcp/deadlines'), env, ctx));
  },
};
