// The documented Next.js route on the edge with Upstash (docs/deployment.md, "On the edge, with Upstash") inside
// Vercel's edge-runtime, two isolates sharing Redis over HTTP (the Upstash protocol served over a real redis-server):
// the official v2 client completes a 2026-07-28 round through one, and an older client's question asked on one
// isolate is answered through the other.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { EdgeRuntime, runServer } from 'edge-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';

let redis: RunningRedis;
let upstash: UpstashServer;
const servers: Awaited<ReturnType<typeof runServer>>[] = [];
const urls: URL[] = [];
beforeAll(async () => {
  redis = await startRedis();
  upstash = await startUpstashServer(redis.url);
  const { code } = await bundleWorker('test/edge/entries/vercel-upstash.ts', { format: 'iife' });
  // Vercel gives an edge function its environment as process.env: the project's Upstash settings and secrets.
  const env = {
    UPSTASH_REDIS_REST_URL: upstash.url,
    UPSTASH_REDIS_REST_TOKEN: upstash.token,
    VAULT_SECRET: 'vercel-edge-vault-secret-0123456789',
    MCP_SESSION_SECRET: 'vercel-edge-session-secret-0123456789',
  };
  for (let i = 0; i < 2; i++) {
    const runtime = new EdgeRuntime({ initialCode: code, extend: (context) => Object.assign(context, { process: { env } }) });
    const server = await runServer({ runtime, host: '127.0.0.1', port: 0 });
    servers.push(server);
    urls.push(new URL('/api/mcp', server.url));
  }
}, 60_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await upstash?.close();
  await redis?.stop();
});

const CONFIRM = { name: 'close_ticket', arguments: { id: 'T-4' } };
const CLOSED = { closed: true, id: 'T-4', note: '' };

describe('a Next.js route on the edge with Upstash, in edge-runtime', () => {
  it('the official v2 client completes a 2026-07-28 round', { timeout: 30_000 }, async () => {
    const client = new Client(
      { name: 'vercel-edge', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(urls[0]!));
    try {
      const result = await client.callTool(CONFIRM);
      expect(result.structuredContent).toEqual(CLOSED);
      expect(asked).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it("an older client's question asked on one isolate is answered through the other", { timeout: 30_000 }, async () => {
    const routed: string[] = [];
    // The answer to the server's elicitation/create (a JSON-RPC response, no method) goes to the other isolate.
    const balance = async (_input: string | URL | Request, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      const answer = body.includes('"result"') && !body.includes('"method"');
      routed.push(`${/"method":"([^"]+)"/.exec(body)?.[1] ?? (answer ? 'answer' : (init?.method ?? 'GET'))} ${answer ? 'b' : 'a'}`);
      return fetch(answer ? urls[1]! : urls[0]!, init);
    };
    const client = new V1Client({ name: 'vercel-edge-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    await client.connect(new V1Transport(urls[0]!, { fetch: balance }));
    try {
      const result = await client.callTool(CONFIRM);
      expect(result.structuredContent).toEqual(CLOSED);
      expect(asked).toHaveLength(1);
      expect(routed).toContain('answer b');
      expect(upstash.log.some((line) => line.startsWith('/subscribe'))).toBe(true);
    } finally {
      await client.close();
    }
  });
});
