// Issue #47 item 3 on Cloudflare Workers: an older client's call stream, cut while its tool asks on isolate a, resumed
// with Last-Event-ID on isolate b from the Durable Objects store; the answer given there completes the call.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers, type DurableWorkers, type Isolate } from '../helpers/durable-objects';
import { LEGACY, request, sseReader } from '../helpers/legacy';

let workers: DurableWorkers;
beforeAll(async () => {
  const bundle = await bundleWorker('examples/cloudflare/worker-durable-objects.ts');
  workers = startDurableWorkers({ code: bundle.code, bindings: { MCP_SESSION_SECRET: 'shared-session-secret', VAULT_SECRET: 'shared' } });
}, 60_000);
afterAll(() => workers?.dispose());

const post = async (to: Isolate, body: unknown, session?: string) => {
  const response = await workers.send(to, '/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY } : {}),
    },
    body: JSON.stringify(body),
  });
  return new Response(response.body, { status: response.status, headers: response.headers });
};

it('a call stream cut on isolate a resumes on isolate b by Last-Event-ID, and the answer there completes the call', {
  timeout: 30_000,
}, async () => {
  const init = await post(
    'a',
    request('initialize', { protocolVersion: LEGACY, capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } }),
  );
  const session = init.headers.get('mcp-session-id')!;
  expect(init.status).toBe(200);
  await post('a', { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  const events = sseReader(await post('a', request('tools/call', { name: 'close_ticket', arguments: { id: 'T-9' } }), session));
  const question = (await events.next())!;
  expect(question.data.method).toBe('elicitation/create');
  await events.cancel();
  // The client saw only the priming event (`<stream>:0`) before its connection to a broke.
  const primed = `${question.id!.split(':')[0]}:0`;
  const resumed = await workers.send('b', '/mcp', {
    headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': LEGACY, 'last-event-id': primed },
  });
  expect(resumed.status).toBe(200);
  const onB = sseReader(new Response(resumed.body, { headers: resumed.headers }));
  const again = (await onB.next())!;
  expect(again).toEqual(question);
  const answered = await post(
    'b',
    { jsonrpc: '2.0', id: question.data.id, result: { action: 'accept', content: { confirm: true, note: 'on b' } } },
    session,
  );
  expect(answered.status).toBe(202);
  const final = (await onB.next())!;
  expect(final.id).toBe(`${primed.split(':')[0]}:2`);
  expect(final.data.result.structuredContent).toEqual({ closed: true, id: 'T-9', note: 'on b' });
  expect(await onB.next()).toBeUndefined();
  expect(workers.output()).not.toContain('ERROR');
});
