import { PublicMcpError, Tool, ToolContext, z } from 'parley-mcp';

const Escalation = z.object({
  team: z.enum(['billing', 'engineering', 'security']).describe('Who should take the ticket'),
  reason: z.string().min(10).describe("Why it can't wait"),
});

@Tool({
  name: 'escalate_ticket',
  description: 'Escalate a ticket to another team. Asks the user which team, and why.',
  inputSchema: { id: z.string() },
})
export class EscalateTicket extends ToolContext {
  async execute({ id }: { id: string }) {
    const answer = await this.elicit(`Escalate ticket ${id}. Which team, and why?`, Escalation);
    if (answer.status !== 'accept') return { escalated: false };
    const parsed = Escalation.safeParse(answer.content);
    if (!parsed.success)
      this.fail(new PublicMcpError("The escalation form wasn't filled in: pick a team and give a reason of 10 characters or more."));
    return { escalated: true, id, ...parsed.data };
  }
}
