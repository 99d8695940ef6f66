// Not on the docs page: the minimal server this section's test needs, written the way the page's other sections write theirs.
import { App, FrontMcp } from 'parley-mcp';
import { ReassignTicket } from './reassign.tool';

@App({ id: 'desk', name: 'Help desk', tools: [ReassignTicket] })
class HelpDesk {}

@FrontMcp({ info: { name: 'Help desk', version: '1.0.0' }, apps: [HelpDesk], elicitation: { enabled: true } })
export class Server {}
