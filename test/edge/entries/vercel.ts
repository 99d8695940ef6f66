// The help-desk server as Vercel serves it, wired to edge-runtime's fetch event for the test.
import { createVercelHandler } from 'parley/vercel';
import { config } from '../../../examples/help-desk/server';

const handler = createVercelHandler(config);
addEventListener('fetch', (event) => (event as FetchEvent).respondWith(handler((event as FetchEvent).request)));

interface FetchEvent extends Event {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
