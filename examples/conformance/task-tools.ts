// The tasks extension's tools (io.modelcontextprotocol/tasks): each becomes a task where it calls startTask(), for a
// request that declared the extension; what it asks after that waits in the task.
import { ErrorCode, McpWireError, Tool, ToolContext } from 'parley-mcp';

const none = { type: 'object' as const, properties: {} };

/** Waits `ms`, or rejects with the signal's reason as soon as it fires (a cancelled task stops at once). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

@Tool({
  name: 'greet',
  description: 'Greets by name, at once (never a task)',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
})
export class Greet extends ToolContext {
  execute({ name }: { name: string }) {
    return `Hello, ${name}!`;
  }
}

@Tool({
  name: 'slow_compute',
  description: 'Works for the given seconds: a task when the client declared tasks, at once for 0 seconds',
  inputSchema: {
    type: 'object',
    properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } },
    required: ['seconds'],
  },
  execution: { taskSupport: 'optional' },
})
export class SlowCompute extends ToolContext {
  async execute({ seconds, label = 'compute' }: { seconds: number; label?: string }) {
    if (seconds <= 0) return `${label}: done at once`;
    await this.startTask();
    for (let second = 1; second <= seconds; second++) {
      await pause(1000, this.signal);
      this.progress(second, seconds, `${label}: ${second} of ${seconds} seconds`);
    }
    return `${label}: done after ${seconds} seconds`;
  }
}

@Tool({
  name: 'failing_job',
  description: 'A task whose tool fails after a second (a tool error)',
  inputSchema: none,
  execution: { taskSupport: 'required' },
})
export class FailingJob extends ToolContext {
  async execute() {
    await this.startTask();
    await pause(1000, this.signal);
    this.fail('The job failed: the input could not be processed');
  }
}

@Tool({
  name: 'protocol_error_job',
  description: 'A task that ends with a JSON-RPC error after half a second',
  inputSchema: none,
  execution: { taskSupport: 'required' },
})
export class ProtocolErrorJob extends ToolContext {
  async execute() {
    await this.startTask();
    await pause(500, this.signal);
    throw new McpWireError(ErrorCode.InternalError, 'The job lost its connection to the warehouse');
  }
}

@Tool({
  name: 'confirm_delete',
  description: 'A task that asks before it deletes the file',
  inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] },
  execution: { taskSupport: 'required' },
})
export class ConfirmDelete extends ToolContext {
  async execute({ filename }: { filename: string }) {
    await this.startTask();
    const answer = await this.elicit(`Delete ${filename}?`, {
      type: 'object',
      properties: { confirm: { type: 'boolean', description: 'Delete the file' } },
      required: ['confirm'],
    });
    return answer.status === 'accept' && answer.content?.confirm === true ? `Deleted ${filename}` : `Kept ${filename}`;
  }
}

// The suite answers each of the two questions with both fields: each form declares both, neither required.
const nameAndConfirm = { type: 'object' as const, properties: { name: { type: 'string' }, confirm: { type: 'boolean' } } };

@Tool({
  name: 'multi_input',
  description: 'A task that asks two questions at once',
  inputSchema: none,
  execution: { taskSupport: 'required' },
})
export class MultiInput extends ToolContext {
  async execute() {
    await this.startTask();
    const [who, sure] = await Promise.all([this.elicit('What is your name?', nameAndConfirm), this.elicit('Go ahead?', nameAndConfirm)]);
    return `name=${String(who.content?.name)}, confirm=${String(sure.content?.confirm)}`;
  }
}

@Tool({
  name: 'test_tool_with_task',
  description: 'Asks a name as a round, then runs as a task',
  inputSchema: none,
  execution: { taskSupport: 'required' },
})
export class ToolWithTask extends ToolContext {
  async execute() {
    const answer = await this.elicit('What is your name?', {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
    await this.startTask();
    await pause(100, this.signal);
    return `Hello, ${String(answer.content?.name)}! (from the task)`;
  }
}
