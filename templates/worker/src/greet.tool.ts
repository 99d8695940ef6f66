// A tool that asks: it stops at `this.elicit()`, the client shows the person a form, and the call goes on with the answer.
// `taskSupport: 'optional'`: a client that asks for a task gets one at `this.startTask()`, and may poll it from any
// instance while the question waits; other clients get an ordinary call, its question asked in rounds.
import { Tool, ToolContext, z } from 'parley-mcp';

const Name = z.object({ name: z.string().describe('Your name') });

@Tool({ name: 'greet', description: 'Greet the person, asking for their name first', execution: { taskSupport: 'optional' } })
export class Greet extends ToolContext {
  async execute() {
    await this.startTask(); // a task from here when the client asked for one; otherwise an ordinary call goes on
    const answer = await this.elicit('What is your name?', Name);
    if (answer.status !== 'accept' || !answer.content) return { greeting: 'Hello, whoever you are.' };
    return { greeting: `Hello, ${answer.content.name}!` };
  }
}
