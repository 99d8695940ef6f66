// A Next.js route on Vercel's edge runtime with Redis over HTTP and the inbox (inbox-app.ts), as docs/deployment.md
// shows it ("On the edge, with Upstash"), wired to edge-runtime's fetch event for the test: mounted, as
// createVercelHandler() passes it, with the caller a host verified.
import type { FetchHandler } from 'parley-mcp';
import { enableInbox } from 'parley-mcp/inbox';
import { enableRedisHttp } from 'parley-mcp/redis-http';
import { callerOf, inboxHandler } from './inbox-app';

enableRedisHttp(); // UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN from the environment
enableInbox();

let handler: FetchHandler | undefined;

addEventListener('fetch', (event) => {
  const { request } = event as FetchEvent;
  handler ??= inboxHandler((globalThis as unknown as { process: { env: Record<string, unknown> } }).process.env);
  (event as FetchEvent).respondWith(handler(request, { mounted: true, ...callerOf(request) }));
});

interface FetchEvent extends Event {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
