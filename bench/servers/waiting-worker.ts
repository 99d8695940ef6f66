// Row 14: the bench's Parley as the Worker `parley init --worker` makes, with what waits for a person: the round (its
// state in requestState, no store) and tasks kept in Durable Objects (ParleyStore, bound as PARLEY_STORE).
import { createWorker, enableDurableObjects } from 'parley-mcp/cloudflare';
import { enableTasks } from 'parley-mcp/tasks';
import { benchConfig } from './parley-app';

export { ParleyStore } from 'parley-mcp/cloudflare';

enableDurableObjects();
enableTasks();

export default createWorker(benchConfig(undefined, 'sealed', true));
