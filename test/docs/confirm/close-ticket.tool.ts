import { Tool, ToolContext, z } from 'parley-mcp';

const Confirm = z.object({
  confirm: z.boolean().describe('Close the ticket'),
  note: z.string().optional().describe('A note for the customer'),
});

@Tool({
  name: 'close_ticket',
  description: 'Close a support ticket. Asks the user to confirm first.',
  inputSchema: { id: z.string().describe('Ticket id, like T-1') },
})
export class CloseTicket extends ToolContext {
  async execute({ id }: { id: string }) {
    const answer = await this.elicit(`Close ticket ${id}? The customer will be notified.`, Confirm);
    if (answer.status !== 'accept') return { closed: false, reason: `The user chose ${answer.status}` };
    if (!answer.content?.confirm) return { closed: false, reason: "The user didn't confirm" };
    return { closed: true, id, note: answer.content.note ?? '' };
  }
}
