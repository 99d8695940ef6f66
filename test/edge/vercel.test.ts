// The Vercel adapter inside edge-runtime, which runs code the way Vercel's edge runtime does.
import { EdgeRuntime } from 'edge-runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { mcpRequest } from '../helpers/requests';

let code: string;
beforeAll(async () => {
  ({ code } = await bundleWorker('test/edge/entries/vercel.ts', { format: 'iife' }));
});

// Vercel gives an edge function its environment as process.env.
const runtimeWith = (env: Record<string, string>) =>
  new EdgeRuntime({ initialCode: code, extend: (context) => Object.assign(context, { process: { env } }) });

async function send(runtime: EdgeRuntime, request: Request) {
  const response = await runtime.dispatchFetch(request.url, {
    method: 'POST',
    headers: Object.fromEntries(request.headers),
    body: await request.text(),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('parley-mcp/vercel in edge-runtime', () => {
  it('runs where EdgeRuntime marks the isolate, and completes a round on another isolate sharing VAULT_SECRET', async () => {
    const one = runtimeWith({ VAULT_SECRET: 'vercel-shared-secret' });
    const two = runtimeWith({ VAULT_SECRET: 'vercel-shared-secret' });
    expect(one.evaluate('EdgeRuntime')).toBe('edge-runtime');
    const call = (extra: Record<string, unknown> = {}) =>
      mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-9' }, ...extra });
    const first = await send(one, call());
    expect(first.body.result.resultType).toBe('input_required');
    const answer = {
      inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } },
      requestState: first.body.result.requestState,
    };
    const done = await send(two, call(answer));
    expect(done.body.result.structuredContent).toEqual({ closed: true, id: 'T-9', note: '' });
  });

  it('serves the path its route is mounted at (app/api/mcp/route.ts) without http.path', async () => {
    const runtime = runtimeWith({ VAULT_SECRET: 'vercel-shared-secret' });
    const listed = await send(runtime, mcpRequest('tools/list', {}, { url: 'https://desk.example.vercel.app/api/mcp' }));
    expect(listed.status).toBe(200);
    expect(listed.body.result.tools.map((t: { name: string }) => t.name)).toContain('close_ticket');
  });
});
