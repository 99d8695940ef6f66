// The Worker (wrangler.toml's main): the server of server.ts, its store in Durable Objects, its tools able to run as
// tasks, and persistent questions with the inbox that answers them under /_frontmcp/.
import { createWorker, enableDurableObjects } from 'parley-mcp/cloudflare';
import { enableInbox } from 'parley-mcp/inbox';
import { enableTasks } from 'parley-mcp/tasks';
import { config } from './server';

export { ParleyStore } from 'parley-mcp/cloudflare'; // the class wrangler.toml binds as PARLEY_STORE

enableDurableObjects(); // the store: env.PARLEY_STORE
enableTasks(); // tasks' code in the bundle (a Worker leaves it out otherwise)
enableInbox(); // persistent questions and the inbox's page and routes (likewise)

export default createWorker({
  ...config,
  http: { auth: { people: 'loopback-token' } }, // people sign in to the inbox with one-time links
  // The questions are kept in the Durable Objects, beside the tasks. 'stderr': inbox_link prints on the Worker's log.
  elicitation: { ...config.elicitation, persistent: { inboxLinks: 'stderr' } },
});
