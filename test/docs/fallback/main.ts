import { App, FrontMcp } from 'parley-mcp';
import { CloseTicket } from './close-ticket.tool';

@App({ id: 'help-desk', name: 'Help Desk', tools: [CloseTicket] })
class HelpDeskApp {}

export const config = { info: { name: 'help-desk', version: '1.0.0' }, apps: [HelpDeskApp], elicitation: { enabled: true } };

@FrontMcp(config)
export default class Server {}
