// The help-desk server: the ticket tools docs/ describes, with elicitation on.
import { App, FrontMcp, type FrontMcpConfigInput } from 'parley-mcp';
import { CloseTicket } from './tools/close-ticket.tool';
import { ConnectBilling, ConnectPayroll } from './tools/connect.tool';
import { EscalateTicket } from './tools/escalate.tool';
import { ReassignTicket } from './tools/reassign.tool';
import { DeleteTicket, ListTickets, PurgeSpam } from './tools/tickets.tool';

@App({
  id: 'desk',
  name: 'Help desk',
  tools: [CloseTicket, EscalateTicket, ReassignTicket, ConnectBilling, ConnectPayroll, ListTickets, DeleteTicket, PurgeSpam],
})
export class HelpDesk {}

export const config: FrontMcpConfigInput = {
  info: { name: 'help-desk', version: '1.0.0' },
  apps: [HelpDesk],
  elicitation: { enabled: true },
};

@FrontMcp(config)
export default class Server {}
