// The help desk's task tool, for the Workers that run tasks (worker-tasks.ts on Redis over HTTP, worker-durable-objects.ts
// on Durable Objects): it asks before it writes the file, and the rest runs under ctx.waitUntil.
import { App, Tool, ToolContext, z } from 'parley-mcp';

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
