import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from 'parley-mcp/node';
import Server from '../../examples/help-desk/server';

let server: RunningServer;
beforeAll(async () => {
  server = await serve(Server, { port: 0 });
});
afterAll(() => server.close());

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean | string[]> };
async function connect(answer: (params: { message: string }) => Answer) {
  const client = new Client(
    { name: 'v2-test', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return answer(request.params as { message: string });
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  return { client, asked };
}

describe('the official v2 client, pinned to 2026-07-28', () => {
  let clients: Client[] = [];
  beforeEach(() => {
    clients = [];
  });
  const open = async (answer: (params: { message: string }) => Answer) => {
    const c = await connect(answer);
    clients.push(c.client);
    return c;
  };

  it('completes close_ticket through an input_required round', async () => {
    const { client, asked } = await open(() => ({ action: 'accept', content: { confirm: true, note: 'done' } }));
    const result = await client.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } });
    expect(asked).toEqual(['Close ticket T-1? The customer will be notified.']);
    expect(result.structuredContent).toEqual({ closed: true, id: 'T-1', note: 'done' });
    await client.close();
  });

  it('escalates with a valid answer, and fails with INVALID_INPUT on one that does not fit', async () => {
    const good = await open(() => ({ action: 'accept', content: { team: 'security', reason: 'Customer data may be exposed' } }));
    const ok = await good.client.callTool({ name: 'escalate_ticket', arguments: { id: 'T-3' } });
    expect(ok.structuredContent).toEqual({ escalated: true, id: 'T-3', team: 'security', reason: 'Customer data may be exposed' });
    const bad = await open(() => ({ action: 'accept', content: { team: 'sales', reason: 'now' } }));
    const rejected = await bad.client.callTool({ name: 'escalate_ticket', arguments: { id: 'T-3' } });
    expect(rejected.isError).toBe(true);
    expect((rejected._meta as { code?: string }).code).toBe('INVALID_INPUT');
    expect(JSON.stringify(rejected.content)).toContain('does not match the requested schema');
    expect(JSON.stringify(rejected.content)).toMatch(/team/);
    await good.client.close();
    await bad.client.close();
  });

  it('reassigns a ticket over two rounds, the second question built from the first answer', async () => {
    const { client, asked } = await open(
      (p): Answer =>
        p.message.startsWith('Which team')
          ? { action: 'accept', content: { team: 'billing' } }
          : { action: 'accept', content: { agent: 'Priya' } },
    );
    const result = await client.callTool({ name: 'reassign_ticket', arguments: { id: 'T-2' } });
    expect(asked).toEqual(['Which team should take T-2?', 'Which billing agent?']);
    expect(result.structuredContent).toEqual({ reassigned: true, id: 'T-2', team: 'billing', agent: 'Priya' });
    await client.close();
  });
});
