// The help-desk Worker with its task tool, its store in Durable Objects: wrangler.toml's `durable-objects` environment
// binds PARLEY_STORE to the ParleyStore class exported here (declared with new_sqlite_classes). Tasks and older clients'
// sessions and questions live there, so any isolate serves them; no other service or secret is needed for the store.
import { createWorker, enableDurableObjects } from 'parley-mcp/cloudflare';
import { enableTasks } from 'parley-mcp/tasks';
import { config, HelpDesk } from '../help-desk/server';
import { Exports } from './exports';

export { ParleyStore } from 'parley-mcp/cloudflare';

enableDurableObjects(); // env.PARLEY_STORE
enableTasks();

export default createWorker({ ...config, apps: [HelpDesk, Exports] });
