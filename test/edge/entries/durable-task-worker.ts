// A Worker whose tasks live in Durable Objects, for the edge load test: `ask_task` asks one question that names its
// task, and returns the answer it got, so a test can see each answer come back to its own task.
import { App, Tool, ToolContext, z } from 'parley-mcp';
import { createWorker, enableDurableObjects } from 'parley-mcp/cloudflare';
import { enableTasks } from 'parley-mcp/tasks';

export { ParleyStore } from 'parley-mcp/cloudflare';

enableDurableObjects();
enableTasks();

@Tool({ name: 'ask_task', inputSchema: { n: z.number().int() }, execution: { taskSupport: 'required' } })
class AskTask extends ToolContext {
  async execute({ n }: { n: number }) {
    await this.startTask();
    const answer = await this.elicit(`Value for task ${n}?`, z.object({ value: z.string() }));
    return `task ${n} got ${answer.content?.value ?? answer.status}`;
  }
}

@App({ id: 'load', tools: [AskTask] })
class Load {}

export default createWorker({
  info: { name: 'durable-task-worker', version: '1.0.0' },
  apps: [Load],
  elicitation: { enabled: true },
  // 200 tasks at once from one anonymous caller; polls a fifth of a second apart.
  tasks: { maxPerCaller: 1000, ended: { maxPerCaller: 1000 }, pollIntervalMs: 200 },
});
