// A tool that asks: it stops at `this.elicit()`, the client shows the person a form, and the call goes on with the answer.
import { Tool, ToolContext, z } from 'parley-mcp';

const Name = z.object({ name: z.string().describe('Your name') });

@Tool({ name: 'greet', description: 'Greet the person, asking for their name first' })
export class Greet extends ToolContext {
  async execute() {
    const answer = await this.elicit('What is your name?', Name);
    if (answer.status !== 'accept' || !answer.content) return { greeting: 'Hello, whoever you are.' };
    return { greeting: `Hello, ${answer.content.name}!` };
  }
}
