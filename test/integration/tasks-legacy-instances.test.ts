// A 2025-11-25 task across two Parley processes on a real redis-server, driven by the official v1 client (1.32): the
// task is created on A, whose work does a step (a line appended to a file) and parks at its first question; A is
// SIGKILLed; the client's tasks/result stream and its answers go to B, where each answer continues the work by replay
// (the second question, then the end). The task completes on B within seconds, and the step ran once.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, type Instance } from '../helpers/instances';
import { startRedis, type RunningRedis } from '../helpers/redis';

const FIXTURE = 'test/fixtures/task-instance-server.ts';
const SECRETS = {
  MCP_ELICITATION_SECRET: 'one task secret for every instance',
  VAULT_SECRET: 'one state secret for every instance',
  MCP_SESSION_SECRET: 'one session secret for every instance',
};
const STEPS = mkdtempSync(join(tmpdir(), 'parley-legacy-steps-'));
const STEP_FILE = join(STEPS, 'steps.log');

let redis: RunningRedis;
const started: Instance[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(started.map((i) => i.stop()));
  await redis?.stop();
  rmSync(STEPS, { recursive: true, force: true });
});

const instance = async (): Promise<Instance> => {
  const one = await startInstance({ PARLEY_TEST_STORE: `redis:${redis.url}`, PARLEY_TEST_STEP_FILE: STEP_FILE, ...SECRETS }, FIXTURE);
  started.push(one);
  return one;
};

/** What the client's requests carry: a JSON-RPC method, or a response (an answer) when there is none. */
async function methodOf(init: RequestInit | undefined): Promise<string> {
  if (typeof init?.body !== 'string') return init?.method ?? 'GET';
  const message = JSON.parse(init.body) as { method?: string };
  return message.method ?? 'answer';
}

describe('a 2025-11-25 task across two processes, with the official v1 client', () => {
  it('A killed while its task waits: tasks/result and the answers on B complete it by replay, its step ran once', async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    const sent: string[] = [];
    let killedAt = 0;
    // The session opens and the task is created on A; everything after goes to B, and the client's tasks/result only
    // once A is gone (the task is input_required by then: its work parked on A at the first question).
    const route = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const method = await methodOf(init);
      const onA = ['initialize', 'notifications/initialized', 'tools/call'].includes(method);
      if (method === 'tasks/result' && !killedAt) {
        await a.kill();
        killedAt = Date.now();
      }
      sent.push(`${method} ${onA ? 'A' : 'B'}`);
      const target = new URL(onA ? a.url : b.url);
      return fetch(target, init);
    };
    const asked: string[] = [];
    const client = new Client({ name: 'v1-legacy-instances', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { value: request.params.message.startsWith('First') ? 'amber' : 'blue' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(a.url), { fetch: route }));
    try {
      const seen: any[] = [];
      const stream = client.experimental.tasks.callToolStream({ name: 'step_twice', arguments: { n: 11 } }, CallToolResultSchema, {
        task: { ttl: 60_000 },
      });
      for await (const message of stream) seen.push(message);
      const finishedAt = Date.now();
      expect(seen.at(-1)).toMatchObject({ type: 'result' });
      expect(seen.at(-1).result.content).toEqual([{ type: 'text', text: 'line of task 11; got amber then blue' }]);
      expect(asked).toEqual(['First for task 11?', 'Second for task 11?']);
      // On B, within seconds of the kill: not after the 30 s lease of the work A ran.
      expect(killedAt).toBeGreaterThan(0);
      expect(finishedAt - killedAt).toBeLessThan(10_000);
      expect(sent).toContain('tools/call A');
      expect(sent).toContain('tasks/result B');
      expect(sent.filter((s) => s.startsWith('answer'))).toEqual(['answer B', 'answer B']);
      // The step ran on A, before the first question; B's replays read its recorded result.
      const lines = readFileSync(STEP_FILE, 'utf8')
        .split('\n')
        .filter((line) => line === 'task 11');
      expect(lines).toHaveLength(1);
    } finally {
      await client.close();
    }
  }, 60_000);
});
