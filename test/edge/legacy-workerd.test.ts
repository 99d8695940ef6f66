// An older client (the official v1 SDK, 2025-11-25) served by two workerd instances through Redis over HTTP: its
// session and pending question live in the store, so the answer it sends to one instance completes the tool on the other.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { LEGACY, legacyPost, openLegacySession, request, sseReader } from '../helpers/legacy';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';
import { startWorker, type RunningWorker } from '../helpers/workerd';

let redis: RunningRedis;
let upstash: UpstashServer;
beforeAll(async () => {
  redis = await startRedis();
  upstash = await startUpstashServer(redis.url);
});
afterAll(async () => {
  await upstash?.close();
  await redis?.stop();
});

// The Worker example finds the store through the credentials alone; the test entry names it in elicitation.redis.
describe.each<{ worker: string; store: Record<string, string> }>([
  { worker: 'examples/cloudflare/worker-redis-http.ts', store: {} },
  { worker: 'test/edge/entries/desk-worker.ts', store: { ELICITATION: '{"enabled":true,"redis":{"provider":"upstash"}}' } },
])('an older client across two workerd instances of $worker', ({ worker, store }) => {
  let a: RunningWorker;
  let b: RunningWorker;
  let urls: { a: URL; b: URL };
  beforeAll(async () => {
    const { code } = await bundleWorker(worker);
    const bindings = {
      ...store,
      UPSTASH_REDIS_REST_URL: upstash.url,
      UPSTASH_REDIS_REST_TOKEN: upstash.token,
      MCP_SESSION_SECRET: 'shared-session-secret',
      VAULT_SECRET: 'shared-vault-secret',
    };
    [a, b] = [startWorker(code, bindings), startWorker(code, bindings)];
    urls = { a: new URL('/mcp', await a.mf.ready), b: new URL('/mcp', await b.mf.ready) };
  });
  afterAll(async () => {
    await Promise.all([a?.dispose(), b?.dispose()]);
  });

  it('asks on the instance that runs the tool, takes the answer on the other, and the tool finishes', async () => {
    const routed: string[] = [];
    // The load balancer: the answer (a JSON-RPC response) goes to B, everything else to A.
    const balance = async (_input: string | URL | Request, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      const toB = body.includes('"result"') && !body.includes('"method"');
      routed.push(`${init?.method ?? 'GET'} ${toB ? 'b' : 'a'}`);
      return fetch(new URL(toB ? urls.b : urls.a), init);
    };
    const client = new Client({ name: 'v1-edge', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true, note: 'via b' } }));
    await client.connect(new StreamableHTTPClientTransport(urls.a, { fetch: balance }));
    try {
      const result = await client.callTool({ name: 'close_ticket', arguments: { id: 'T-7' } });
      expect(result.structuredContent).toEqual({ closed: true, id: 'T-7', note: 'via b' });
      expect(routed).toContain('POST b'); // the answer reached A's waiting call through B: the store is shared
    } finally {
      await client.close();
    }
  });

  it('resumes a lost call stream by Last-Event-ID while the tool still waits, and the answer reaches the resumed stream', async () => {
    // The tool runs in the POST's request; the resumed GET is another request, which workerd would cancel as hung
    // if its stream were only written from the POST's.
    const send = (r: Request) =>
      fetch(urls.a, { method: r.method, headers: r.headers, body: r.method === 'GET' ? undefined : r.body, duplex: 'half' } as RequestInit);
    const session = await openLegacySession(send);
    const call = sseReader(await send(legacyPost(request('tools/call', { name: 'close_ticket', arguments: { id: 'T-8' } }), session)));
    const question = (await call.next())!;
    expect(question.data.method).toBe('elicitation/create');
    await call.cancel(); // the connection drops; the tool goes on waiting
    const headers = {
      accept: 'text/event-stream',
      'mcp-session-id': session,
      'mcp-protocol-version': LEGACY,
      'last-event-id': question.id!,
    };
    const resumed = sseReader(await send(new Request(urls.a, { method: 'GET', headers })));
    const answer = await send(
      legacyPost(
        { jsonrpc: '2.0', id: question.data.id, result: { action: 'accept', content: { confirm: true, note: 'resumed' } } },
        session,
      ),
    );
    expect(answer.status).toBe(202);
    const final = (await resumed.next())!;
    expect(final.id).toBe(question.id!.replace(/:1$/, ':2'));
    expect(final.data.result.structuredContent).toEqual({ closed: true, id: 'T-8', note: 'resumed' });
    expect(await resumed.next()).toBeUndefined();
    expect(a.output()).not.toContain('hung');
  });
});
