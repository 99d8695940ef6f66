// The benchmarked Parley server: the simple tool and the one-question tool, elicitation on; served on Node and in workerd.
import { App, Tool, ToolContext, z, type FrontMcpConfigInput } from 'parley-mcp';
import {
  CLIENT_ADDRESS_HEADER,
  ROUND_TOOL,
  SIMPLE_JSON_TOOL,
  SIMPLE_TOOL,
  TASK_QUESTION_TOOL,
  TASK_TOOL,
  THREE_TOOL,
  greeting,
  roundDone,
  roundQuestion,
  threeDone,
  threeQuestion,
} from './fixture';

@Tool({ name: SIMPLE_TOOL, description: 'Greets someone.', inputSchema: { name: z.string() } })
class Greet extends ToolContext {
  execute({ name }: { name: string }) {
    return greeting(name);
  }
}

@Tool({
  name: SIMPLE_JSON_TOOL,
  description: 'Greets someone.',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
})
class GreetJson extends ToolContext {
  execute({ name }: Record<string, unknown>) {
    return greeting(name as string);
  }
}

const Confirm = z.object({ confirm: z.boolean() });

@Tool({ name: ROUND_TOOL, description: 'Confirms an order after asking.', inputSchema: { id: z.string() } })
class ConfirmOrder extends ToolContext {
  async execute({ id }: { id: string }) {
    const answer = await this.elicit(roundQuestion(id), Confirm);
    return answer.status === 'accept' && answer.content?.confirm ? roundDone(id) : `Order ${id} kept`;
  }
}

@App({ id: 'bench', tools: [Greet, GreetJson, ConfirmOrder] })
class BenchApp {}

@Tool({
  name: TASK_TOOL,
  description: 'Greets someone, as a task.',
  inputSchema: { name: z.string() },
  execution: { taskSupport: 'required' },
})
class GreetTask extends ToolContext {
  async execute({ name }: { name: string }) {
    await this.startTask();
    return greeting(name);
  }
}

@Tool({
  name: TASK_QUESTION_TOOL,
  description: 'Confirms an order after asking, as a task.',
  inputSchema: { id: z.string() },
  execution: { taskSupport: 'required' },
})
class ConfirmOrderTask extends ToolContext {
  async execute({ id }: { id: string }) {
    await this.startTask();
    const answer = await this.elicit(roundQuestion(id), Confirm);
    return answer.status === 'accept' && answer.content?.confirm ? roundDone(id) : `Order ${id} kept`;
  }
}

@Tool({
  name: THREE_TOOL,
  description: 'Confirms an order after three checks, as a task when the client asks for one.',
  inputSchema: { id: z.string() },
  execution: { taskSupport: 'optional' },
})
class ConfirmThree extends ToolContext {
  async execute({ id }: { id: string }) {
    await this.startTask();
    for (let n = 1; n <= 3; n++) {
      const answer = await this.elicit(threeQuestion(id, n), Confirm);
      if (answer.status !== 'accept' || !answer.content?.confirm) return `Order ${id} stopped at check ${n}`;
    }
    return threeDone(id);
  }
}

// A separate app, served only with BENCH_TASKS (rows 10 to 13): the other rows' servers list the same tools as before.
@App({ id: 'bench-tasks', tools: [GreetTask, ConfirmOrderTask, ConfirmThree] })
class BenchTasksApp {}

/** A setting from the environment: a Worker has no `process`, and reads none. */
const setting = (name: string): string | undefined =>
  (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name];

/**
 * `redis`: sessions and questions live there, so instances share them (row 4). `requestState`: sealed (default) or
 * signed (row 2's A/B). `tasks`: the task tools too (BENCH_TASKS on Node; a Worker, which has no process.env, says so).
 */
export const benchConfig = (
  redis?: string,
  requestState: 'sealed' | 'signed' = 'sealed',
  tasks = Boolean(setting('BENCH_TASKS')),
): FrontMcpConfigInput => ({
  info: { name: 'bench', version: '1.0.0' },
  apps: tasks ? [BenchApp, BenchTasksApp] : [BenchApp],
  // Rows 6 and 7 hold 10,000 questions at 100 per session from one (anonymous) caller: past the defaults
  // (docs/stores-and-scaling.md, "Limits on older clients' sessions"), so the bench raises them.
  elicitation: {
    enabled: true,
    requestState,
    pending: { maxPerSession: 128, maxPerCaller: 1_000_000 },
    // Row 11's live-run figure: a signed-in caller's task files its question in the caller's inbox, and such a task
    // still waits in its run (docs/tasks.md); the inbox's questions kept in memory.
    ...(setting('BENCH_INBOX') ? { persistent: { storage: { type: 'memory' } } } : {}),
  },
  http: {
    sessions: { maxTotal: 10_000, maxPerCaller: 10_000, maxStreams: 128 },
    ...(setting('BENCH_INBOX') ? { auth: { people: 'loopback-token' as const } } : {}),
    // Rows 11 and 12's anonymous callers are told apart by the address this header names (others send none).
    ...(tasks ? { clientAddressHeader: CLIENT_ADDRESS_HEADER } : {}),
  },
  logging: { level: 'warn' },
  ...(redis ? { redis } : {}),
  // Row 11 holds 10,000 waiting tasks, 100 callers' 100 each: past the cap on a process's live tasks.
  ...(setting('BENCH_TASK_LIMIT') ? { tasks: { maxTotal: Number(setting('BENCH_TASK_LIMIT')) } } : {}),
  // Row 9: callers signed in with an ES256 JWT checked against this JWKS (fetched once, then kept), for this resource.
  ...(setting('BENCH_AUTH_JWKS') ? { auth: { jwksUrl: setting('BENCH_AUTH_JWKS'), issuer: BENCH_ISSUER, audience: BENCH_AUDIENCE } } : {}),
});

/** The issuer and audience of row 9's tokens. */
export const BENCH_ISSUER = 'https://idp.bench.example';
export const BENCH_AUDIENCE = 'https://bench.example/mcp';
