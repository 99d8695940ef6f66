import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from 'parley/node';
import { legacyDesk } from '../fixtures/legacy-desk';

let server: RunningServer;
beforeAll(async () => {
  server = await serve(legacyDesk(), { port: 0 });
});
afterAll(() => server.close());

type Params = { message: string; requestedSchema?: { required?: string[] } };
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(answer: (params: Params) => ElicitResult | Promise<ElicitResult>) {
  const client = new Client({ name: 'v1-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const asked: Params[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params as Params);
    return answer(request.params as Params);
  });
  const transport = new StreamableHTTPClientTransport(new URL(server.url));
  await client.connect(transport);
  clients.push(client);
  return { client, asked, transport };
}

describe('the official v1 client (2025-11-25) and server-initiated elicitation', () => {
  it('negotiates 2025-11-25 and gets a session', async () => {
    const { client, transport } = await connect(() => ({ action: 'cancel' }));
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(client.getServerVersion()).toEqual({ name: 'help-desk', version: '1.0.0' });
  });

  it('closes a ticket when the user accepts', async () => {
    const { client, asked } = await connect(() => ({ action: 'accept', content: { confirm: true, note: 'fixed' } }));
    const result = await client.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } });
    expect(asked.map((p) => p.message)).toEqual(['Close ticket T-1? The customer will be notified.']);
    expect(asked[0]!.requestedSchema?.required).toEqual(['confirm']);
    expect(result.structuredContent).toEqual({ closed: true, id: 'T-1', note: 'fixed' });
  });

  it('leaves the ticket open on decline and on cancel', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const { client } = await connect(() => ({ action }));
      const result = await client.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } });
      expect(result.structuredContent).toEqual({ closed: false, reason: `The user chose ${action}` });
    }
  });

  it('escalates with a valid answer, and fails with INVALID_INPUT on one that does not fit the schema', async () => {
    const good = await connect(() => ({ action: 'accept', content: { team: 'security', reason: 'Customer data may be exposed' } }));
    const ok = await good.client.callTool({ name: 'escalate_ticket', arguments: { id: 'T-3' } });
    expect(ok.structuredContent).toEqual({ escalated: true, id: 'T-3', team: 'security', reason: 'Customer data may be exposed' });
    const bad = await connect(() => ({ action: 'accept', content: { team: 'sales', reason: 'now' } }));
    const rejected = await bad.client.callTool({ name: 'escalate_ticket', arguments: { id: 'T-3' } });
    expect(rejected.isError).toBe(true);
    expect((rejected._meta as { code?: string }).code).toBe('INVALID_INPUT');
    expect(JSON.stringify(rejected.content)).toContain('does not match the requested schema');
  });

  it('reassigns a ticket with two questions on one call', async () => {
    const { client, asked } = await connect((p): ElicitResult => (p.message.startsWith('Which team') ? { action: 'accept', content: { team: 'engineering' } } : { action: 'accept', content: { agent: 'Lee' } }));
    const result = await client.callTool({ name: 'reassign_ticket', arguments: { id: 'T-2' } });
    expect(asked.map((p) => p.message)).toEqual(['Which team should take T-2?', 'Which engineering agent?']);
    expect(result.structuredContent).toEqual({ reassigned: true, id: 'T-2', team: 'engineering', agent: 'Lee' });
  });

  it('fails the call with ELICITATION_TIMEOUT when the client never answers', async () => {
    const { client } = await connect(() => new Promise<ElicitResult>(() => {}));
    const result = await client.callTool({ name: 'confirm_quickly', arguments: { id: 'T-9' } });
    expect(result.isError).toBe(true);
    expect((result._meta as { code?: string }).code).toBe('ELICITATION_TIMEOUT');
    expect(JSON.stringify(result.content)).toContain('Elicitation request timed out');
  });
});
