// The decorators called as functions, the form JavaScript without decorator syntax uses: Tool({...})(CloseTicket).
import { describe, expect, it } from 'vitest';
import { App, connect, FrontMcp, Tool, ToolContext, z } from 'parley-mcp';

class Confirm extends ToolContext {
  async execute({ id }: { id: string }) {
    const answer = await this.elicit(`Close ${id}?`, z.object({ confirm: z.boolean() }));
    return { closed: answer.status === 'accept' && answer.content?.confirm === true, id };
  }
}

describe('decorators called as functions', () => {
  it('record the class and return it, so a server declared without decorator syntax serves and asks', async () => {
    const CloseTicket = Tool({ name: 'close_ticket', description: 'Close a ticket', inputSchema: { id: z.string() } })(Confirm);
    expect(CloseTicket).toBe(Confirm);
    const Desk = App({ id: 'desk', tools: [CloseTicket] })(class {});
    const Server = FrontMcp({ info: { name: 'desk', version: '1.0.0' }, apps: [Desk], elicitation: { enabled: true } })(class {});
    const client = await connect(Server);
    client.onElicitation((params) => ({ action: 'accept', content: { confirm: params.message === 'Close T-3?' } }));
    expect((await client.callTool('close_ticket', { id: 'T-3' })).structuredContent).toEqual({ closed: true, id: 'T-3' });
    await client.dispose();
  });
});
