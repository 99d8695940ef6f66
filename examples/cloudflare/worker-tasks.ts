// The help-desk Worker with a tool that runs as a task. enableTasks() puts tasks into the bundle and Redis over HTTP
// (UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN in the Worker's env) keeps them, so any isolate answers
// tasks/get, tasks/update and tasks/cancel. The work runs under ctx.waitUntil, which Cloudflare cuts 30 s after the
// response: a task ends within that, or ends failed saying so (docs/tasks.md, "On Cloudflare Workers").
import { App, Tool, ToolContext, z } from 'parley-mcp';
import { createWorker } from 'parley-mcp/cloudflare';
import { enableRedisHttp } from 'parley-mcp/redis-http';
import { enableTasks } from 'parley-mcp/tasks';
import { config, HelpDesk } from '../help-desk/server';

enableRedisHttp();
enableTasks();

@Tool({
  name: 'export_tickets',
  description: 'Exports the tickets of a status as CSV, as a task: asks before it writes the file.',
  inputSchema: { status: z.enum(['open', 'closed']).describe('Which tickets') },
  execution: { taskSupport: 'optional' },
})
export class ExportTickets extends ToolContext {
  async execute({ status }: { status: 'open' | 'closed' }) {
    await this.startTask(); // the client has the task's handle from here; the rest runs under ctx.waitUntil
    this.progress(1, 2, `Collecting the ${status} tickets`);
    const rows = status === 'open' ? 3 : 12;
    const go = await this.elicit(`Write ${rows} ${status} tickets to tickets-${status}.csv?`, z.object({ confirm: z.boolean() }));
    return go.content?.confirm ? `tickets-${status}.csv: ${rows} rows` : 'Nothing exported';
  }
}

@App({ id: 'exports', name: 'Exports', tools: [ExportTickets] })
export class Exports {}

export default createWorker({ ...config, apps: [HelpDesk, Exports] });
