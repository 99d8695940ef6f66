import { Tool, ToolContext, z } from 'parley-mcp';

@Tool({ name: 'connect_payroll', description: "Connect the help desk to the user's payroll account", inputSchema: {} })
export class ConnectPayroll extends ToolContext {
  async execute() {
    const answer = await this.elicit('Sign in to your payroll account to connect it', z.object({}), {
      mode: 'url',
      url: 'https://payroll.example/connect?state=def456',
    });
    return { connected: answer.status === 'accept' };
  }
}
