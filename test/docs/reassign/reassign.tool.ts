import { Tool, ToolContext, z } from 'parley-mcp';

const agents = { billing: ['Sam', 'Priya'], engineering: ['Nour', 'Lee'] } as const;

@Tool({ name: 'reassign_ticket', description: 'Move a ticket to another team and agent', inputSchema: { id: z.string() } })
export class ReassignTicket extends ToolContext {
  async execute({ id }: { id: string }) {
    const first = await this.elicit(`Which team should take ${id}?`, z.object({ team: z.enum(['billing', 'engineering']) }));
    if (first.status !== 'accept' || !first.content) return { reassigned: false };
    const team = first.content.team;
    const second = await this.elicit(`Which ${team} agent?`, z.object({ agent: z.enum(agents[team]) }));
    if (second.status !== 'accept' || !second.content) return { reassigned: false };
    return { reassigned: true, id, team, agent: second.content.agent };
  }
}
