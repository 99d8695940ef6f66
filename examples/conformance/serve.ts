// Starts the conformance fixture on loopback (PORT, default a free port) and prints its URL on stdout.
import { serve } from 'parley-mcp/node';
import Server from './server';

const { url } = await serve(Server, { port: Number(process.env.PORT ?? 0) });
console.log(url);
