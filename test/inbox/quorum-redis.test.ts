// A 2-of-2 quorum across two instances of one server on one real redis-server, waited on by a task and by a 2026-07-28
// call that takes a round first. alice's client (parley-mcp/client) sends its tools/call to instance A and everything
// after it (the round's retry, tasks/get) to instance B; bob decides in A's inbox and carol in B's; the task and the
// call each end with both decisions, and the task's status says for whom it waits meanwhile.
import { App, Tool, ToolContext, z, type FrontMcpConfigInput } from 'parley-mcp';
import { McpClient } from 'parley-mcp/client';
import { serve, type RunningServer } from 'parley-mcp/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestIdp } from '../helpers/oidc';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { callerToken, freePort, type Person, quiet, registerInbox, SECRET, signIn, startPeopleIdp, yes } from './addressees-helpers';

@Tool({
  name: 'refund_quorum',
  inputSchema: { order: z.string(), task: z.boolean() },
  execution: { taskSupport: 'optional' },
})
class RefundQuorum extends ToolContext {
  async execute({ order, task }: { order: string; task: boolean }) {
    let reason = 'none';
    if (task) await this.startTask();
    else reason = String((await this.elicit(`Why refund ${order}?`, z.object({ reason: z.string() }))).content?.reason);
    const answer = await this.elicit(`Refund order ${order}?`, z.object({ approve: z.boolean() }), {
      ttl: 30_000,
      persist: { key: `refund-${order}` },
      to: [{ group: 'finance' }],
      quorum: 2,
    });
    return { status: answer.status, reason, decisions: (answer.decisions ?? []).map((d) => `${d.by} ${d.action}`) };
  }
}

@App({ id: 'refunds', tools: [RefundQuorum] })
class Refunds {}

let idp: TestIdp;
let redis: RunningRedis;
let a: RunningServer;
let b: RunningServer;
let bob: Person;
let carol: Person;
const vault = process.env.VAULT_SECRET;

beforeAll(async () => {
  // One requestState key on both instances, so a round's retry is read on the other one.
  process.env.VAULT_SECRET = 'quorum-redis-test-vault-secret-0123456789';
  redis = await startRedis();
  idp = await startPeopleIdp();
  const ports = [await freePort(), await freePort()];
  const client = await registerInbox(
    idp,
    ports.map((port) => `http://127.0.0.1:${port}/_frontmcp/sign-in/callback`),
  );
  const config: FrontMcpConfigInput = {
    info: { name: `quorum-redis-${process.pid}`, version: '1.0.0' },
    apps: [Refunds],
    logger: quiet,
    auth: { secret: SECRET, issuer: idp.issuer },
    // Tasks and questions both in the one Redis.
    redis: { url: redis.url },
    tasks: { pollIntervalMs: 20 },
    http: { auth: { oidc: { ...client, scope: 'openid email groups' } } },
    elicitation: { enabled: true, persistent: { storage: { type: 'redis' } } },
  };
  [a, b] = (await Promise.all(ports.map((port) => serve(config, { port, quiet: true })))) as [RunningServer, RunningServer];
  bob = await signIn(new URL(a.url).origin, 'bob');
  carol = await signIn(new URL(b.url).origin, 'carol');
});
afterAll(async () => {
  await a?.close({ graceMs: 0 });
  await b?.close({ graceMs: 0 });
  await idp?.close();
  await redis?.stop();
  if (vault === undefined) delete process.env.VAULT_SECRET;
  else process.env.VAULT_SECRET = vault;
});

/** alice's client: its tools/call goes to A, every request after it to B (a load balancer with no affinity). */
async function aliceClient(hops: string[]): Promise<McpClient> {
  const token = await callerToken(idp);
  let called = false;
  const route = async (request: Request): Promise<Response> => {
    const { method } = (await request.clone().json()) as { method: string };
    const to = method === 'tools/call' && !called ? a : b;
    if (method === 'tools/call') called = true;
    hops.push(`${method}@${to === a ? 'A' : 'B'}`);
    const url = new URL(request.url);
    return fetch(new Request(new URL(url.pathname + url.search, to.url), request));
  };
  const client = new McpClient({ url: a.url, fetch: route, headers: { authorization: token }, tasks: { minPollMs: 20 } });
  client.onElicitation(() => ({ action: 'accept', content: { reason: 'damaged' } }));
  return client;
}

/** bob on A, then carol on B, once the question is in their inboxes. */
async function decide(message: string): Promise<void> {
  const q = await bob.waitFor(message);
  expect(await bob.answer(q.id, yes)).toMatchObject({ status: 200, body: { status: 'decided', accepts: 1, quorum: 2 } });
  await carol.waitFor(message, (x) => x.decisions?.length === 1);
  expect((await carol.answer(q.id, yes)).status).toBe(200);
}

const both = () => [`${idp.issuer}#bob accept`, `${idp.issuer}#carol accept`];

describe('a quorum across two instances on one Redis', () => {
  it('a task started on A waits for bob (on A) and carol (on B); its status says for whom; B shows it completed', async () => {
    const hops: string[] = [];
    const client = await aliceClient(hops);
    const statuses: string[] = [];
    try {
      const calling = client.callTool(
        { name: 'refund_quorum', arguments: { order: 'T1', task: true } },
        { onTaskStatus: (task) => void (task.statusMessage && statuses.push(task.statusMessage)) },
      );
      await decide('Refund order T1?');
      const result = await calling;
      expect(result.structuredContent).toEqual({ status: 'accept', reason: 'none', decisions: both() });
      expect(hops[0]).toBe('tools/call@A');
      expect(hops.slice(1).every((hop) => hop.endsWith('@B'))).toBe(true);
      expect(hops).toContain('tasks/get@B');
      expect(statuses).toContain('Waiting for group finance (2 must accept) to answer in the inbox: Refund order T1?');
    } finally {
      await client.close();
    }
  });

  it('a 2026-07-28 call answers its round on A, waits on B for bob (on A) and carol (on B), and gets both', async () => {
    const hops: string[] = [];
    const client = await aliceClient(hops);
    try {
      const calling = client.callTool({ name: 'refund_quorum', arguments: { order: 'C1', task: false } });
      await decide('Refund order C1?');
      const result = await calling;
      expect(result.structuredContent).toEqual({ status: 'accept', reason: 'damaged', decisions: both() });
      expect(hops).toEqual(['tools/call@A', 'tools/call@B']);
    } finally {
      await client.close();
    }
  });
});
