// The help-desk server as Vercel serves it, wired to edge-runtime's fetch event for the test.
import { createVercelHandler } from 'parley-mcp/vercel';
import { config } from '../../../examples/help-desk/server';

// No Redis over HTTP here: 'stateless' serves 2026-07-28 rounds, which need no store.
const handler = createVercelHandler({ ...config, elicitation: { ...config.elicitation, edge: 'stateless' } });
addEventListener('fetch', (event) => (event as FetchEvent).respondWith(handler((event as FetchEvent).request)));

interface FetchEvent extends Event {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
