// What tasks cost the server's memory and CPU (issue #45): a loopback serve() in its own process, driven by one
// anonymous client; RSS and CPU read from /proc. Run: npx tsx --conditions=parley-source bench/task-memory.ts <load>
// with <load> one of ended (120 quick tasks, 900 KB argument each), listens (100 slow tasks with 200 KB arguments,
// 17 listens of all of them, 40 s), cpu (100 slow tasks with 1 KB arguments, 100 listens of all of them, 20 s), or
// `waiting [count] [memory|redis|inbox]` (issue #46, `npm run bench` row 11 alone: `count` one-question tasks waiting at
// their question in the bench's Parley, bundled, with --expose-gc; memory per waiting task: bench/lib/pending-memory.ts).
import { spawn } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startRedis, type RunningRedis } from '../test/helpers/redis';
import { measureWaitingTasks, waitingCallers, waitingEnv, type WaitingKind } from './lib/pending-memory';
import { startServer } from './lib/processes';
import { startJwks } from './lib/signed-in';

const TASKS_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

async function server(): Promise<void> {
  const { App, Tool, ToolContext, z } = await import('parley-mcp');
  const { serve } = await import('parley-mcp/node');
  @Tool({ name: 'quick', inputSchema: { data: z.string() }, execution: { taskSupport: 'optional' } })
  class Quick extends ToolContext {
    async execute() {
      await this.startTask();
      return 'done';
    }
  }
  @Tool({ name: 'slow', inputSchema: { data: z.string() }, execution: { taskSupport: 'optional' } })
  class Slow extends ToolContext {
    async execute() {
      await this.startTask();
      await new Promise((resolve) => this.signal.addEventListener('abort', resolve, { once: true }));
      return 'stopped';
    }
  }
  @App({ id: 'bench', tools: [Quick, Slow] })
  class BenchApp {}
  const running = await serve(
    {
      info: { name: 'task-memory', version: '1.0.0' },
      apps: [BenchApp],
      elicitation: { enabled: true },
      http: { maxBodyBytes: 2 * 1024 * 1024 },
      logger: { debug() {}, info() {}, warn: (m: string) => console.error(m), error: (m: string) => console.error(m) },
    },
    { port: 0 },
  );
  process.on('warning', (w) => console.error(`WARNING ${w.name}`));
  console.log(`LISTENING ${running.port}`);
}

/** The server's resident memory (MB) and CPU seconds so far, from /proc. */
function sample(pid: number): { rssMb: number; cpuS: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { rssMb: Math.round(rssKb / 1024), cpuS: (Number(stat[11]) + Number(stat[12])) / 100 };
}

async function post(url: string, method: string, params: Record<string, unknown>): Promise<Response> {
  const name = params.taskId ?? params.name;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: TASKS_META } }),
  });
}

async function call(url: string, tool: string, bytes: number): Promise<string> {
  const response = await post(url, 'tools/call', { name: tool, arguments: { data: 'x'.repeat(bytes) } });
  const text = await response.text();
  const taskId = /"taskId":"(tsk_[^"]+)"/.exec(text)?.[1];
  return taskId ?? `refused ${response.status} ${text.slice(0, 200)}`;
}

/** Opens a listen of the tasks and reads (and drops) what it sends until the signal fires. */
async function listen(url: string, taskIds: string[], signal: AbortSignal, counted: { events: number }): Promise<void> {
  const response = await post(url, 'subscriptions/listen', { notifications: { taskIds } });
  const reader = response.body!.getReader();
  signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) return;
    counted.events += value?.length ?? 0;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function drive(load: string): Promise<void> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), 'server'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const warnings = new Map<string, number>();
  child.stderr.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean))
      warnings.set(line.slice(0, 80), (warnings.get(line.slice(0, 80)) ?? 0) + 1);
  });
  const port = await new Promise<number>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      const m = /LISTENING (\d+)/.exec(chunk.toString());
      if (m) resolve(Number(m[1]));
    }),
  );
  const url = `http://127.0.0.1:${port}/mcp`;
  const pid = child.pid!;
  try {
    await call(url, 'quick', 10); // warm
    await pause(500);
    const before = sample(pid);
    console.log(`before: ${before.rssMb} MB`);
    if (load === 'ended') {
      const outcomes = [];
      for (let i = 0; i < 120; i++) outcomes.push(await call(url, 'quick', 900_000));
      await pause(2000);
      const refused = outcomes.filter((o) => !o.startsWith('tsk_'));
      console.log(`after 120 calls: ${sample(pid).rssMb} MB; refused ${refused.length}${refused[0] ? ` (${refused[0]})` : ''}`);
      return;
    }
    const [tasks, bytes, listens, seconds] = load === 'listens' ? [100, 200_000, 17, 40] : [100, 1_000, 100, 20];
    const taskIds: string[] = [];
    for (let i = 0; i < tasks; i++) taskIds.push(await call(url, 'slow', bytes));
    console.log(`${taskIds.filter((t) => t.startsWith('tsk_')).length} tasks: ${sample(pid).rssMb} MB`);
    const stop = new AbortController();
    setMaxListeners(0, stop.signal); // the listens' readers: this client's own, not the server's
    const counted = { events: 0 };
    const open = Array.from({ length: listens }, () => listen(url, taskIds, stop.signal, counted).catch(() => undefined));
    const start = sample(pid);
    const t0 = Date.now();
    let peak = start.rssMb;
    const latencies: number[] = [];
    for (let s = 0; s < seconds; s += 2) {
      await pause(2000);
      peak = Math.max(peak, sample(pid).rssMb);
      const t = Date.now();
      await call(url, 'quick', 10);
      latencies.push(Date.now() - t);
    }
    const end = sample(pid);
    const wall = (Date.now() - t0) / 1000;
    console.log(
      `${listens} listens × ${tasks} tasks for ${wall.toFixed(0)} s: RSS ${start.rssMb} → ${end.rssMb} MB (peak ${peak}); ` +
        `CPU ${((end.cpuS - start.cpuS) / wall).toFixed(2)} s/s; a quick call took ${Math.min(...latencies)}–${Math.max(...latencies)} ms; ` +
        `${counted.events} bytes of notifications`,
    );
    stop.abort();
    await Promise.all(open);
  } finally {
    child.kill('SIGTERM');
    for (const [line, n] of warnings) console.log(`server stderr ×${n}: ${line}`);
  }
}

/** Row 11 alone: the memory per task of `count` tasks waiting at their question, on one server of `kind`. */
async function waiting(count: number, kind: WaitingKind): Promise<void> {
  if (!['memory', 'redis', 'inbox'].includes(kind)) throw new Error(`waiting: memory, redis or inbox, not ${kind}`);
  let redis: RunningRedis | undefined;
  const jwks = kind === 'inbox' ? await startJwks() : undefined;
  try {
    if (kind === 'redis') redis = await startRedis();
    const env = {
      MCP_SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
      ...waitingEnv(kind, count, { redisUrl: redis?.url, jwksUrl: jwks?.url }),
    };
    const held = await startServer('parley', { nodeFlags: ['--expose-gc'], env });
    try {
      const callers = await waitingCallers(kind, count, jwks?.tokenFor);
      const m = await measureWaitingTasks(held, count, { callers, redisPort: redis?.port });
      const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;
      console.log(
        `${count} tasks waiting (${kind}), created in ${m.seconds.toFixed(1)} s: RSS ${kb(m.perTask)} each; after a full GC RSS ${kb(m.collected.rss)}, ` +
          `live ${kb(m.collected.live)} each; at rest ${m.restCores.toFixed(3)} cores` +
          `${m.redisBytes === undefined ? '' : `; redis-server ${kb(m.redisBytes)} each`}; answered afterwards ${m.answered.completed}/${m.answered.sampled} completed${m.answered.failure ? ` (${m.answered.failure})` : ''}`,
      );
    } finally {
      await held.stop();
    }
  } finally {
    await redis?.stop();
    await jwks?.close();
  }
}

if (process.argv[2] === 'server') await server();
else if (process.argv[2] === 'waiting') await waiting(Number(process.argv[3] ?? 10_000), (process.argv[4] ?? 'memory') as WaitingKind);
else await drive(process.argv[2] ?? 'ended');
