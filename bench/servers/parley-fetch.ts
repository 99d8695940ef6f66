// Parley's createFetchHandler under the runtime's own server: Bun.serve on Bun, Deno.serve on Deno (row 8).
import { createFetchHandler } from 'parley-mcp';
import { announce } from './fixture';
import { benchConfig } from './parley-app';
import { serveFetch } from './runtime-serve';

const handler = createFetchHandler(benchConfig());
announce(await serveFetch((request) => handler(request)));
