import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';

const SERVER = ['--import', 'tsx', 'test/fixtures/stdio-server.ts'];
type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean | string[]> };

async function open(answer: (message: string) => Answer) {
  const client = new Client({ name: 'v2-stdio-test', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return answer(request.params.message);
  });
  const transport = new StdioClientTransport({ command: process.execPath, args: SERVER, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  return { client, asked, stderr: () => stderr };
}

describe('the official v2 client over stdio, pinned to 2026-07-28', () => {
  it('completes the ticket tools through input_required rounds', async () => {
    const { client, asked } = await open((m): Answer =>
      m.startsWith('Close') ? { action: 'accept', content: { confirm: true, note: 'done' } } : m.startsWith('Which team') ? { action: 'accept', content: { team: 'billing' } } : { action: 'accept', content: { agent: 'Priya' } },
    );
    try {
      const closed = await client.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } });
      expect(closed.structuredContent).toEqual({ closed: true, id: 'T-1', note: 'done' });
      const reassigned = await client.callTool({ name: 'reassign_ticket', arguments: { id: 'T-2' } });
      expect(reassigned.structuredContent).toEqual({ reassigned: true, id: 'T-2', team: 'billing', agent: 'Priya' });
      expect(asked).toEqual(['Close ticket T-1? The customer will be notified.', 'Which team should take T-2?', 'Which billing agent?']);
    } finally {
      await client.close();
    }
  });

  it('keeps stdout clean when a tool writes to it: the writes reach stderr', async () => {
    const { client, stderr } = await open(() => ({ action: 'cancel' }));
    try {
      const result = await client.callTool({ name: 'noisy', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'said hello' }]);
      // The client parses every stdout line as JSON-RPC; the next call still works.
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('close_ticket');
      await expect.poll(stderr).toContain('hello from console.log');
      expect(stderr()).toContain('a raw stdout write');
    } finally {
      await client.close();
    }
  });

  it('runs the elicitation hooks: a reworded question, a refused one, a rejected answer', async () => {
    const { client, asked } = await open(() => ({ action: 'accept', content: { color: 'plaid' } }));
    try {
      const rejected = await client.callTool({ name: 'pick_color', arguments: {} });
      expect(asked).toEqual(['[desk] Which color?']);
      expect(rejected.isError).toBe(true);
      expect(JSON.stringify(rejected.content)).toContain('Rejected: plaid is not a color');
      const refused = await client.callTool({ name: 'ask_password', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('Refused: forms must not ask for passwords');
      expect(asked).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
