import { Tool, ToolContext, z } from 'parley-mcp';

@Tool({ name: 'connect_billing', description: "Connect the help desk to the user's billing account", inputSchema: {} })
export class ConnectBilling extends ToolContext {
  async execute() {
    const state = 'abc123'; // in a real server, one per request, kept to check the page's callback
    const answer = await this.elicit('Sign in to your billing account to connect it', z.object({}), {
      mode: 'url',
      url: `https://billing.example/connect?state=${state}`,
      elicitationId: `billing-${state}`,
    });
    return { connected: answer.status === 'accept' };
  }
}
