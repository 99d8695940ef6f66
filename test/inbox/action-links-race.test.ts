// An action link used at once from many places (double clicks, two instances behind a load balancer) answers once:
// its record's atomic take in a real Redis shared by two servers lets exactly one POST through.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, z } from 'parley-mcp';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { policyServer, type PolicyServer } from './unanswered-helpers';

@Tool({ name: 'merge', inputSchema: { pr: z.string() } })
class Merge extends ToolContext {
  async execute({ pr }: { pr: string }) {
    const answer = await this.elicit(`Merge ${pr}?`, z.object({ approve: z.boolean() }), { ttl: 4_000 });
    return { status: answer.status };
  }
}

@App({ id: 'race', tools: [Merge] })
class Race {}

let redis: RunningRedis;
let a: PolicyServer;
let b: PolicyServer;
let hook: Server;
const bodies: string[] = [];

beforeAll(async () => {
  redis = await startRedis();
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      res.end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  const shared = {
    apps: [Race],
    info: { name: `race-${process.pid}`, version: '1.0.0' },
    elicitation: {
      enabled: true,
      persistent: {
        storage: { type: 'redis' as const, redis: { url: redis.url } },
        notify: {
          url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`,
          secret: 'race-action-links-secret',
          actionLinks: 'possession' as const,
        },
      },
      unanswered: { afterMs: 100, then: 'inbox' as const },
    },
  };
  a = await policyServer(shared);
  b = await policyServer(shared);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await new Promise((r) => hook?.close(r));
  await redis?.stop();
});

describe('an action link used many times at once', () => {
  it('answers once across two instances sharing Redis; every other use hears it was used', async () => {
    for (let round = 0; round < 5; round++) {
      const before = bodies.length;
      expect((await a.call('ned', 'merge', { pr: `#${round}` })).resultType).toBe('input_required');
      for (let i = 0; i < 200 && bodies.length === before; i++) await new Promise((r) => setTimeout(r, 25));
      const { accept, decline } = JSON.parse(bodies.at(-1)!).actions as { accept: string; decline: string };
      const uses = Array.from({ length: 8 }, (_, i) => {
        const server = i % 2 === 0 ? a : b;
        const link = new URL(i % 4 < 2 ? accept : decline);
        return fetch(`${server.url.origin}${link.pathname}${link.search}`, {
          method: 'POST',
          headers: { origin: server.url.origin, 'sec-fetch-site': 'same-origin' },
        }).then((r) => r.status);
      });
      const statuses = (await Promise.all(uses)).sort();
      expect(
        statuses.filter((s) => s === 200),
        String(statuses),
      ).toHaveLength(1);
      expect(
        statuses.every((s) => s === 200 || s === 410 || s === 409),
        String(statuses),
      ).toBe(true);
    }
  });
});
