// An app with one tool that answers who is calling: the subject, the client and the scopes the server resolved.
import { App, Tool, ToolContext, z } from 'parley-mcp';

@Tool({ name: 'whoami', description: 'Who is calling', inputSchema: z.object({}) })
class WhoAmI extends ToolContext {
  execute() {
    return { sub: this.auth.user.sub, clientId: this.auth.clientId ?? null, scopes: this.auth.scopes ?? null };
  }
}

@App({ id: 'who', tools: [WhoAmI] })
export class Who {}
