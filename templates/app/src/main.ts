// npm start: the server on Node at http://127.0.0.1:3000/mcp (PORT moves it; 0 picks a free port).
import { serve } from 'parley-mcp/node';
import { config } from './server';

await serve(config, { port: Number(process.env.PORT ?? 3000) }); // its banner names the URL
