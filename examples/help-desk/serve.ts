// Starts the help desk on Node: http://127.0.0.1:${PORT:-3000}/mcp
import { serve } from 'parley-mcp/node';
import Server from './server';

const { url } = await serve(Server);
console.error(`help-desk MCP server listening on ${url}`);
