// Starts the help desk on Node: http://127.0.0.1:${PORT:-3000}/mcp. serve() prints the banner (URL, tools, store).
import { serve } from 'parley/node';
import Server from './server';

await serve(Server);
