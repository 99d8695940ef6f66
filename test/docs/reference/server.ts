import { App, FrontMcp, Tool, ToolContext, z } from 'parley-mcp';

@Tool({ name: 'close_ticket', description: 'Close a ticket after the user confirms', inputSchema: { id: z.string() } })
class CloseTicket extends ToolContext {
  async execute({ id }: { id: string }) {
    const answer = await this.elicit(`Close ticket ${id}?`, z.object({ confirm: z.boolean() }));
    if (answer.status !== 'accept' || !answer.content?.confirm) return { closed: false };
    return { closed: true, id };
  }
}

@App({ id: 'desk', name: 'Help desk', tools: [CloseTicket] })
class HelpDesk {}

@FrontMcp({ info: { name: 'Help desk', version: '1.0.0' }, apps: [HelpDesk], elicitation: { enabled: true } })
export default class Server {}
