import { App, FrontMcp } from 'parley-mcp';
import { CloseTicket } from './close-ticket.tool';

@App({ id: 'desk', name: 'Help desk', tools: [CloseTicket] })
class HelpDesk {}

@FrontMcp({ info: { name: 'Help desk', version: '1.0.0' }, apps: [HelpDesk], elicitation: { enabled: true } })
export class Server {}
