// The Worker (wrangler.toml's main): the server of server.ts, its store in Durable Objects, its tools able to run as tasks.
import { createWorker, enableDurableObjects } from 'parley-mcp/cloudflare';
import { enableTasks } from 'parley-mcp/tasks';
import { config } from './server';

export { ParleyStore } from 'parley-mcp/cloudflare'; // the class wrangler.toml binds as PARLEY_STORE

enableDurableObjects(); // the store: env.PARLEY_STORE
enableTasks(); // tasks' code in the bundle (a Worker leaves it out otherwise)

export default createWorker(config);
