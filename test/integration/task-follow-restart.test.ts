// parley-mcp/client following a 2026-07-28 task through a restart: the instance it polls and answers on starts shutting
// down (SIGTERM, with work still running there, so it stays up for its grace and refuses new requests with 503
// SHUTTING_DOWN), the balancer takes it out after that refusal, and the client sends the refused request (a poll or its
// answer) again after the Retry-After, to the other instance, instead of failing the call. Two real processes on a real redis-server.
import { McpClient } from 'parley-mcp/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, type Instance } from '../helpers/instances';
import { startRedis, type RunningRedis } from '../helpers/redis';

const FIXTURE = 'test/fixtures/task-instance-server.ts';
const SECRETS = { MCP_ELICITATION_SECRET: 'one task secret for every instance', VAULT_SECRET: 'one state secret for every instance' };

let redis: RunningRedis;
let a: Instance;
let b: Instance;
const clients: McpClient[] = [];
beforeAll(async () => {
  redis = await startRedis();
  const env = { PARLEY_TEST_STORE: `redis:${redis.url}`, ...SECRETS };
  [a, b] = await Promise.all([startInstance({ ...env, PARLEY_TEST_GRACE_MS: '4000' }, FIXTURE), startInstance(env, FIXTURE)]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([a?.kill(), b?.stop()]);
  await redis?.stop();
});

describe('a task followed through a restart', () => {
  it('a poll or its answer refused with SHUTTING_DOWN by the instance going down is sent again, to the other, and the call completes', async () => {
    // Work running on A keeps A up for its grace once it is told to stop.
    const other = new McpClient({ url: a.url, tasks: true });
    clients.push(other);
    void other.callTool({ name: 'wait_task', arguments: { label: 'keeps A up' } }).catch(() => {});
    await expect.poll(() => a.log(), { timeout: 10_000 }).toMatch(/listening/);

    let up = a;
    const sent: string[] = [];
    const client = new McpClient({
      url: a.url,
      tasks: true,
      // A balancer that takes an instance out once it answers 503.
      fetch: async (request) => {
        const body = await request.text();
        const method = String(JSON.parse(body).method);
        const to = up;
        const response = await fetch(to.url, { method: request.method, headers: request.headers, body, signal: request.signal });
        sent.push(`${method} ${to === a ? 'A' : 'B'} ${response.status}`);
        if (response.status === 503) up = b;
        return response;
      },
    });
    clients.push(client);
    let stopping: Promise<void> | undefined;
    client.onElicitation(async () => {
      // The person answers just after A was told to stop.
      stopping = a.terminate();
      await new Promise((resolve) => setTimeout(resolve, 500));
      return { action: 'accept', content: { value: 'after the restart began' } };
    });
    const result = await client.callTool({ name: 'ask_task', arguments: { n: 7 } });
    expect(result.content).toEqual([{ type: 'text', text: 'task 7 got after the restart began' }]);
    // A refused a poll or the answer as it went down; the same request went again, to B, and the answer was taken there.
    const refused = sent.findIndex((line) => /^tasks\/(get|update) A 503$/.test(line));
    expect(refused).toBeGreaterThan(0);
    expect(sent.slice(refused + 1)).toContain(sent[refused]!.replace('A 503', 'B 200'));
    expect(sent).toContain('tasks/update B 200');
    await stopping;
  }, 60_000);
});
