import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean | string[]> };

// One server process for the file: a stdio server serves one client, and each test asks it in turn.
let client: Client;
let stderr = '';
const asked: string[] = [];
let answer: (message: string) => Answer = () => ({ action: 'cancel' });

beforeAll(async () => {
  client = new Client(
    { name: 'v2-stdio-test', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return answer(request.params.message);
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--conditions=parley-source', '--import', 'tsx', 'test/fixtures/stdio-server.ts'],
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
});
afterAll(() => client.close());

describe('the official v2 client over stdio, pinned to 2026-07-28', () => {
  it('completes the ticket tools through input_required rounds', async () => {
    asked.length = 0;
    answer = (m): Answer =>
      m.startsWith('Close')
        ? { action: 'accept', content: { confirm: true, note: 'done' } }
        : m.startsWith('Which team')
          ? { action: 'accept', content: { team: 'billing' } }
          : { action: 'accept', content: { agent: 'Priya' } };
    const closed = await client.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } });
    expect(closed.structuredContent).toEqual({ closed: true, id: 'T-1', note: 'done' });
    const reassigned = await client.callTool({ name: 'reassign_ticket', arguments: { id: 'T-2' } });
    expect(reassigned.structuredContent).toEqual({ reassigned: true, id: 'T-2', team: 'billing', agent: 'Priya' });
    expect(asked).toEqual(['Close ticket T-1? The customer will be notified.', 'Which team should take T-2?', 'Which billing agent?']);
  });

  it('keeps stdout clean when a tool writes to it: the writes reach stderr', async () => {
    const result = await client.callTool({ name: 'noisy', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'said hello' }]);
    // The client parses every stdout line as JSON-RPC; the next call still works.
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('close_ticket');
    await expect.poll(() => stderr).toContain('hello from console.log');
    expect(stderr).toContain('a raw stdout write');
  });

  it('runs the elicitation hooks: a reworded question, a refused one, a rejected answer', async () => {
    asked.length = 0;
    answer = () => ({ action: 'accept', content: { color: 'plaid' } });
    const rejected = await client.callTool({ name: 'pick_color', arguments: {} });
    expect(asked).toEqual(['[desk] Which color?']);
    expect(rejected.isError).toBe(true);
    expect(rejected.content).toEqual([{ type: 'text', text: 'Rejected: plaid is not a color' }]);
    const refused = await client.callTool({ name: 'ask_password', arguments: {} });
    expect(refused.content).toEqual([{ type: 'text', text: 'Refused: forms must not ask for passwords' }]);
    expect(asked).toHaveLength(1);
  });
});
