// A smoke of the benchmark harness against Parley in its own process: bodies are checked, and a wrong one makes the run invalid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runManyQuestions } from '../../bench/lib/legacy-round';
import { completedTask, runPlainTasks, runQuestionTasks, runRounds, taskGet } from '../../bench/lib/task-round';
import { runLoad } from '../../bench/lib/load';
import { undisturbed } from '../../bench/lib/measure';
import { modernRequest, resultOf } from '../../bench/lib/wire';
import { SIMPLE_ARGS, SIMPLE_TOOL } from '../../bench/servers/fixture';
import { startRedis } from '../helpers/redis';
import { startServer, type ServerProcess } from '../../bench/lib/processes';
import { startWaitingWorker } from '../../bench/lib/waiting-worker';
import { cpuSeconds } from '../../bench/lib/cpu';
import { elicitationRound, simpleCall } from '../../bench/scenarios';

let parley: ServerProcess;
beforeAll(async () => {
  parley = await startServer('parley');
});
afterAll(() => parley?.stop());

describe('the benchmark harness', () => {
  it('checks every body of a simple-call run', async () => {
    const run = await runLoad(parley.url, simpleCall(), { connections: 4, amount: 40 });
    expect(run).toMatchObject({ checked: 40, bad: 0, errors: 0, non2xx: 0, valid: true });
  });

  it('marks a run invalid when the bodies are not the expected result', async () => {
    const run = await runLoad(parley.url, simpleCall('Hello, somebody else!'), { connections: 2, amount: 10 });
    expect(run.valid).toBe(false);
    expect(run.bad).toBe(10);
    expect(run.badSample).toContain('Hello, bench!');
  });

  it('has the bare node:http ceiling answer the simple call with the bytes Parley answers it with', async () => {
    // A ceiling that answered less (no resultType, no serverInfo) would be measuring a smaller answer.
    const bare = await startServer('node-http');
    try {
      const { method, headers, body } = modernRequest('tools/call', { name: SIMPLE_TOOL, arguments: SIMPLE_ARGS });
      const [ours, ceiling] = await Promise.all(
        [parley, bare].map(async (server) => (await fetch(server.url, { method, headers, body })).text()),
      );
      expect(JSON.parse(ours!).result.resultType).toBe('complete');
      expect(ceiling).toBe(ours);
    } finally {
      await bare.stop();
    }
  });

  it('reports the log tail and the exit of a server that does not start', async () => {
    // A real Node that refuses its flags: it exits before listening, and the error carries what it printed.
    const error = await startServer('parley', { runtime: [process.execPath, '--no-such-flag'] }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('exited with code 9 before listening');
    expect((error as Error).message).toContain('--no-such-flag');
  });

  it('reads a result sent as a one-message event stream, as a client accepting text/event-stream may get it', () => {
    const message = '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}';
    expect(resultOf(`event: message\ndata: ${message}\n\n`)).toEqual({ content: [] });
    expect(resultOf(`data: ${message}\n\ndata: ${message}\n\n`)).toBeUndefined();
  });

  it('runs a disturbed run again and keeps the least disturbed', async () => {
    const others = [0.9, 0.5, 0.7];
    const settings = { runs: 1, duration: 1, warmup: 0, connections: 1, maxOther: 0.3, retries: 2 };
    const [kept, discarded] = await undisturbed(
      settings,
      async () => ({ otherCores: others.shift()!, load: 1 }),
      () => {},
    );
    expect(kept.otherCores).toBe(0.5);
    expect(discarded).toBe(2);
    const [first, none] = await undisturbed(
      settings,
      async () => ({ otherCores: 0.1, load: 1 }),
      () => {},
    );
    expect([first.otherCores, none]).toEqual([0.1, 0]);
  });

  it('completes elicitation rounds, answering each input_required with its requestState', async () => {
    const run = await runLoad(parley.url, elicitationRound(), { connections: 2, amount: 20 });
    expect(run).toMatchObject({ checked: 20, bad: 0, valid: true });
    expect(run.cycleP50).toBeGreaterThan(0);
  });

  it('row 7: every concurrent question of a session gets its own answer across two processes (0 lost)', async () => {
    const redis = await startRedis();
    const env = {
      BENCH_REDIS_URL: redis.url,
      MCP_SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
      VAULT_SECRET: 'bench-vault-secret-0123456789abcdef',
    };
    const [a, b] = [await startServer('parley', { env }), await startServer('parley', { env })];
    try {
      const run = await runManyQuestions(a.url, b.url, { sessions: 4, perSession: 4, waves: 1 });
      console.log(`row 7 smoke: ${run.calls} calls, lost ${run.lost}`);
      expect(run).toMatchObject({ calls: 16, lost: 0 });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await redis.stop();
    }
  }, 60_000);

  it('row 10: tasks complete with their bodies checked, the question answered on the other process through Redis (0 lost)', async () => {
    const redis = await startRedis();
    const env = {
      BENCH_REDIS_URL: redis.url,
      BENCH_TASKS: '1',
      MCP_SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
      VAULT_SECRET: 'bench-vault-secret-0123456789abcdef',
    };
    const [a, b] = [await startServer('parley', { env }), await startServer('parley', { env })];
    try {
      const plain = await runPlainTasks(a.url, { clients: 2, cycles: 6 });
      expect(plain).toMatchObject({ cycles: 6, lost: 0 });
      expect(plain.polls).toBeGreaterThanOrEqual(1);
      const get = await runLoad(a.url, taskGet(await completedTask(a.url)), { connections: 2, amount: 10 });
      expect(get).toMatchObject({ checked: 10, bad: 0, valid: true });
      // Another task's id is not this task: the check reads the body, not only the status.
      const other = await runLoad(b.url, taskGet('tsk_AAAAAAAAAAAAAAAAAAAAAAAA'), { connections: 1, amount: 2 });
      expect(other.valid).toBe(false);
      const asked = await runQuestionTasks(a.url, b.url, { clients: 1, cycles: 4 });
      console.log(`row 10 smoke: ${asked.cycles} question tasks, lost ${asked.lost} ${asked.lostSample ?? ''}`);
      expect(asked).toMatchObject({ cycles: 4, lost: 0 });
      expect(await runRounds(a.url, b.url, { clients: 1, cycles: 4 })).toMatchObject({ cycles: 4, lost: 0 });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await redis.stop();
    }
  }, 60_000);

  it("row 14: the Worker with Durable Objects completes rounds and tasks, its CPU counted on workerd's process", async () => {
    const worker = await startWaitingWorker();
    try {
      const before = cpuSeconds(worker.pid);
      expect(await runRounds(worker.url, worker.url, { clients: 1, cycles: 3 })).toMatchObject({ cycles: 3, lost: 0 });
      expect(await runQuestionTasks(worker.url, worker.url, { clients: 2, cycles: 4 })).toMatchObject({ cycles: 4, lost: 0 });
      // The work ran in the process the row reads: its CPU moved (in 10 ms ticks, and four tasks take far more).
      expect(cpuSeconds(worker.pid) - before).toBeGreaterThan(0);
    } finally {
      await worker.stop();
    }
  }, 60_000);
});
