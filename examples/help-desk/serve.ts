// Starts the help desk on Node: http://127.0.0.1:${PORT:-3000}/mcp. serve() prints the banner (URL, tools, store), and
// rejects when the server can't start (a config that does not validate, a port in use): say why, exit non-zero.
import { serve } from 'parley-mcp/node';
import Server from './server';

// A deploy's stop (SIGTERM, or Ctrl-C): /readyz says 503 at once, new calls get 503, calls in flight and questions
// already waiting get 10 s, then the calls still running end with SHUTTING_DOWN and the process exits.
await serve(Server, { handleSignals: { graceMs: 10_000 } }).catch((error: Error) => {
  console.error(`[parley] ✖ ${error.message}`);
  process.exit(1);
});
