// Starts the help desk on Node: http://127.0.0.1:${PORT:-3000}/mcp. serve() prints the banner (URL, tools, store), and
// rejects when the server can't start (a config that does not validate, a port in use): say why, exit non-zero.
import { serve } from 'parley-mcp/node';
import Server from './server';

const running = await serve(Server).catch((error: Error) => {
  console.error(`[parley] ✖ ${error.message}`);
  process.exit(1);
});
// A deploy's stop: questions already waiting get 10 s to be answered, then the calls still running end with SHUTTING_DOWN.
process.on('SIGTERM', () => void running.close({ graceMs: 10_000 }).then(() => process.exit(0)));
