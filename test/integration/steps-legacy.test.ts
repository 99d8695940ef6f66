// this.step() on an older client's call (2025-11-25), with the official v1 client: asked on its stream the run stays
// alive and the step runs once; through the sendElicitationResult fallback each answer replays the tool, and the
// step's result travels in the fallback's sealed record, so it still runs once.
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { legacyDesk } from '../fixtures/legacy-desk';

let opened = 0;

@Tool({ name: 'open_then_ask', description: 'Opens a ticket in a step, then asks twice', inputSchema: { title: z.string() } })
class OpenThenAsk extends ToolContext {
  async execute({ title }: { title: string }) {
    const ticket = await this.step('open-ticket', () => ({ id: `T-${++opened}`, title }));
    const team = await this.elicit(`Team for ${ticket.id}?`, z.object({ team: z.string() }));
    const agent = await this.elicit(`Agent for ${ticket.id}?`, z.object({ agent: z.string() }));
    return { ticket: ticket.id, team: team.content?.team, agent: agent.content?.agent, opened };
  }
}

@App({ id: 'steps', tools: [OpenThenAsk] })
class Steps {}

let server: RunningServer;
beforeAll(async () => {
  const desk = legacyDesk();
  server = await serve({ ...desk, apps: [...desk.apps!, Steps] }, { port: 0 });
});
afterAll(() => server.close());

async function v1Client(answer?: (message: string) => Record<string, string>) {
  const client = new V1Client({ name: 'v1-steps', version: '1.0.0' }, { capabilities: answer ? { elicitation: {} } : {} });
  if (answer)
    client.setRequestHandler(ElicitRequestSchema, async (r) => ({ action: 'accept', content: answer(r.params.message as string) }));
  await client.connect(new V1Transport(new URL(server.url)));
  return client;
}

const answerFor = (message: string): Record<string, string> => (message.startsWith('Team') ? { team: 'billing' } : { agent: 'Priya' });

describe('this.step() on a 2025-11-25 call', () => {
  it('asked on the call stream: the run stays alive, and the step runs once', async () => {
    opened = 0;
    const client = await v1Client(answerFor);
    try {
      const result = await client.callTool({ name: 'open_then_ask', arguments: { title: 'Printer' } });
      expect(result.structuredContent ?? JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual({
        ticket: 'T-1',
        team: 'billing',
        agent: 'Priya',
        opened: 1,
      });
    } finally {
      await client.close();
    }
  });

  it('through the sendElicitationResult fallback: two replays, and the step still ran once', async () => {
    opened = 0;
    const client = await v1Client();
    const pendingOf = (result: Record<string, unknown>) =>
      (result._meta as { elicitationPending: { elicitId: string; message: string } }).elicitationPending;
    try {
      const first = pendingOf(await client.callTool({ name: 'open_then_ask', arguments: { title: 'Fax' } }));
      expect(first.message).toBe('Team for T-1?');
      const second = pendingOf(
        await client.callTool({
          name: 'sendElicitationResult',
          arguments: { elicitId: first.elicitId, action: 'accept', content: { team: 'billing' } },
        }),
      );
      expect(second.message).toBe('Agent for T-1?');
      const done = await client.callTool({
        name: 'sendElicitationResult',
        arguments: { elicitId: second.elicitId, action: 'accept', content: { agent: 'Priya' } },
      });
      const text = (done.content as { text: string }[])[0]!.text;
      expect(done.structuredContent ?? JSON.parse(text)).toEqual({ ticket: 'T-1', team: 'billing', agent: 'Priya', opened: 1 });
      expect(opened).toBe(1);
    } finally {
      await client.close();
    }
  });
});
