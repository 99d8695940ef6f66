// A server whose tool is written with Valibot (docs/tools.md): its JSON Schema from @valibot/to-json-schema, its
// arguments checked by Valibot, execute() typed from the schema. worker.ts serves it on Cloudflare Workers.
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { App, type FrontMcpConfigInput, type Infer, Tool, ToolContext } from 'parley-mcp';

const NewTicket = toStandardJsonSchema(
  v.object({
    title: v.pipe(v.string(), v.minLength(3), v.description('What is wrong, in a few words')),
    priority: v.optional(v.picklist(['low', 'normal', 'urgent']), 'normal'),
  }),
);

@Tool({ name: 'open_ticket', description: 'Opens a support ticket.', inputSchema: NewTicket })
export class OpenTicket extends ToolContext<Infer<typeof NewTicket>> {
  execute({ title, priority }: Infer<typeof NewTicket>) {
    // priority is 'low' | 'normal' | 'urgent' here: Valibot's default filled it in.
    return { id: `T-${title.length}`, title, priority };
  }
}

@App({ id: 'tickets', tools: [OpenTicket] })
class Tickets {}

export const config: FrontMcpConfigInput = { info: { name: 'tickets', version: '1.0.0' }, apps: [Tickets] };
