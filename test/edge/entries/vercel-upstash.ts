// A Next.js route on Vercel's edge runtime with Redis over HTTP, as docs/deployment.md shows it ("On the edge, with
// Upstash"), on the help-desk server, wired to edge-runtime's fetch event for the test.
import { enableRedisHttp } from 'parley-mcp/redis-http';
import { createVercelHandler } from 'parley-mcp/vercel';
import { config } from '../../../examples/help-desk/server';

enableRedisHttp(); // UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN from the environment

const handler = createVercelHandler(config);
addEventListener('fetch', (event) => (event as FetchEvent).respondWith(handler((event as FetchEvent).request)));

interface FetchEvent extends Event {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
