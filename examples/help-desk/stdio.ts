// Serves the help desk over stdio, for a client that starts it: `node --import tsx examples/help-desk/stdio.ts`.
import { serveStdio } from 'parley-mcp/stdio';
import Server from './server';

await serveStdio(Server);
