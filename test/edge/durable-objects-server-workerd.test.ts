// Parley on Cloudflare Workers with its store in Durable Objects, inside workerd, the objects in an isolate of their
// own: a 2026-07-28 task created on one isolate, polled and answered on another; an older client's question asked on
// one isolate and answered on the other; and the Worker's refusal when its entry asks for Durable Objects that
// wrangler.toml did not bind.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from 'parley-mcp/client';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers, type DurableWorkers } from '../helpers/durable-objects';
import { mcpRequest } from '../helpers/requests';
import { startWorker } from '../helpers/workerd';

let code: string;
const running: { dispose(): Promise<void> }[] = [];
beforeAll(async () => {
  const bundle = await bundleWorker('examples/cloudflare/worker-durable-objects.ts');
  expect(bundle.nodeImports).toEqual([]);
  code = bundle.code;
});
afterAll(async () => {
  await Promise.all(running.map((w) => w.dispose()));
});

/** A client whose tools/call goes to isolate a and every tasks/* to isolate b. */
function routedClient(workers: DurableWorkers) {
  const routed: string[] = [];
  const client = new McpClient({
    url: new URL('http://a.test/mcp'),
    tasks: { minPollMs: 20 },
    fetch: async (request) => {
      const method = request.headers.get('mcp-method') ?? '';
      const to = method.startsWith('tasks/') ? 'b' : 'a';
      routed.push(`${method} ${to}`);
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
      const response = await workers.send(to, new URL(request.url).pathname, {
        method: request.method,
        headers: Object.fromEntries(request.headers),
        body,
      });
      return new Response(response.body, { status: response.status, headers: response.headers });
    },
  });
  return { client, routed };
}

describe('tasks on Cloudflare Workers, Durable Objects', () => {
  it('creates a task on one isolate; another serves its polls and answer, and the task completes', { timeout: 30_000 }, async () => {
    const workers = startDurableWorkers({ code });
    running.push(workers);
    const { client, routed } = routedClient(workers);
    const asked: string[] = [];
    client.onElicitation((params) => {
      asked.push(params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    try {
      const result = await client.callTool({ name: 'export_tickets', arguments: { status: 'open' } });
      expect(result.content).toEqual([{ type: 'text', text: 'tickets-open.csv: 3 rows' }]);
      expect(asked).toEqual(['Write 3 open tickets to tickets-open.csv?']);
      // Created on A; every poll and the answer went to B, which found the task in its Durable Objects and woke A's work.
      expect(routed.filter((r) => r.startsWith('tools/call'))).toEqual(['tools/call a']);
      expect(routed).toContain('tasks/get b');
      expect(routed).toContain('tasks/update b');
      expect(routed.filter((r) => r.startsWith('tasks/') && !r.endsWith(' b'))).toEqual([]);
      expect(workers.output()).not.toContain('ERROR');
    } finally {
      await client.close();
    }
  });

  it('refuses to start when the Durable Object binding is missing, naming it and what to add', async () => {
    const worker = startWorker(code);
    running.push(worker);
    const response = await worker.send(mcpRequest('tools/list'));
    expect(response.status).toBe(503);
    await expect.poll(() => worker.output()).toContain('Server failed to start');
    expect(worker.output()).toContain(
      `enableDurableObjects() keeps the store in Durable Objects, but the Worker's env has no Durable Object binding named PARLEY_STORE: add [[durable_objects.bindings]] name = "PARLEY_STORE" class_name = "ParleyStore" and [[migrations]] new_sqlite_classes = ["ParleyStore"] to wrangler.toml`,
    );
  });
});

describe('an older client on Cloudflare Workers, Durable Objects', () => {
  it('asks on the isolate that runs the tool, takes the answer on the other, and the tool finishes', { timeout: 30_000 }, async () => {
    const workers = startDurableWorkers({ code, bindings: { MCP_SESSION_SECRET: 'shared-session-secret', VAULT_SECRET: 'shared' } });
    running.push(workers);
    const routed: string[] = [];
    // The load balancer: the answer (a JSON-RPC response) goes to B, everything else to A.
    const balance = async (input: string | URL | Request, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? init.body : undefined;
      const to = body?.includes('"result"') && !body.includes('"method"') ? 'b' : 'a';
      routed.push(`${init?.method ?? 'GET'} ${to}`);
      const response = await workers.send(to, new URL(String(input)).pathname, {
        method: init?.method ?? 'GET',
        headers: Object.fromEntries(new Headers(init?.headers)),
        body,
      });
      return new Response(response.body, { status: response.status, headers: response.headers });
    };
    const client = new Client({ name: 'v1-edge', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true, note: 'via b' } }));
    await client.connect(new StreamableHTTPClientTransport(new URL('http://a.test/mcp'), { fetch: balance }));
    try {
      const result = await client.callTool({ name: 'close_ticket', arguments: { id: 'T-7' } });
      expect(result.structuredContent).toEqual({ closed: true, id: 'T-7', note: 'via b' });
      expect(routed).toContain('POST b'); // the answer reached A's waiting call through B: the session and question are shared
    } finally {
      await client.close();
    }
  });
});
