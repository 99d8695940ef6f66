// A task driven step by step in a test: its status and open questions, one answer at a time, the next state awaited.
import { McpClientError, type ElicitAnswer, type ElicitRequestParams, type McpClient, type TaskState, type TaskStatus } from '../client';
import { ToolResult } from './tool-result';

const ENDS = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);
/** A test's polls: quick, because the server is in the process or next to it. */
const POLL_MS = 10;

export class TestTask {
  constructor(
    private readonly client: McpClient,
    /** The task as last seen: from the call that created it, then from each tasks/get. */
    public state: TaskState,
  ) {}

  get id(): string {
    return this.state.taskId;
  }
  get status(): TaskStatus {
    return this.state.status;
  }
  get statusMessage(): string | undefined {
    return this.state.statusMessage;
  }

  /** The open questions as last seen, by key: the params of each elicitation/create. */
  get questions(): Record<string, ElicitRequestParams> {
    const open: Record<string, ElicitRequestParams> = Object.create(null);
    if (this.state.status !== 'input_required') return open;
    for (const [key, request] of Object.entries(this.state.inputRequests ?? {})) open[key] = (request.params ?? {}) as ElicitRequestParams;
    return open;
  }

  /** The tool's result, once the task completed. */
  get result(): ToolResult {
    if (this.state.status !== 'completed' || !this.state.result)
      throw new McpClientError(`Task ${this.id} is ${this.describe()}: only a completed task has a result`);
    return new ToolResult(this.state.result);
  }

  /** One tasks/get: the task as the server shows it now. */
  async refresh(): Promise<TaskState> {
    this.state = (await this.client.request('tasks/get', { taskId: this.id })) as TaskState;
    return this.state;
  }

  /**
   * Polls until the task is in `status`, and returns it; throws when it ends in another status, or after `timeoutMs`
   * (default 5000), naming the last state seen.
   */
  async until(status: TaskStatus, options: { timeoutMs?: number } = {}): Promise<TaskState> {
    const deadline = Date.now() + (options.timeoutMs ?? 5000);
    for (;;) {
      if (this.state.status === status) return this.state;
      if (ENDS.has(this.state.status))
        throw new McpClientError(`Task ${this.id} ended ${this.describe()} while the test waited for ${status}`);
      if (Date.now() > deadline) throw new McpClientError(`Task ${this.id} is still ${this.describe()}; the test waited for ${status}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      await this.refresh();
    }
  }

  /** Answers one open question (tasks/update with that key alone). The key must be among the questions last seen. */
  async answer(key: string, answer: ElicitAnswer): Promise<void> {
    if (!Object.hasOwn(this.questions, key))
      throw new McpClientError(`Task ${this.id} has no open question "${key}" (open: ${Object.keys(this.questions).join(', ') || 'none'})`);
    const inputResponses: Record<string, unknown> = Object.create(null);
    inputResponses[key] = answer;
    await this.client.request('tasks/update', { taskId: this.id, inputResponses });
  }

  /** Sends tasks/cancel; the task's next state shows whether the work stopped in time. */
  async cancel(): Promise<void> {
    await this.client.request('tasks/cancel', { taskId: this.id });
  }

  private describe(): string {
    const { status, statusMessage, error } = this.state;
    return [status, statusMessage && `"${statusMessage}"`, error && `(${error.code} ${error.message})`].filter(Boolean).join(' ');
  }
}
