// The OpenAI Agents SDK (MCPServerStreamableHttp, 2026-07-28, no elicitation declared) against the help desk on Node:
// a scripted "model" reads each tool result's text and calls sendElicitationResult as it says; no LLM is involved.
import { MCPServerStreamableHttp } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from 'parley-mcp/node';
import Server, { config } from '../../examples/help-desk/server';
import { bearer } from '../helpers/bearer';

const SECRET = 'agents-fallback-test-secret-0123456789';
let anonymous: RunningServer;
let signedIn: RunningServer;
const open: MCPServerStreamableHttp[] = [];
beforeAll(async () => {
  anonymous = await serve(Server, { port: 0 });
  signedIn = await serve({ ...config, auth: { secret: SECRET }, logger: { debug() {}, info() {}, warn() {}, error() {} } }, { port: 0 });
});
afterAll(async () => {
  await Promise.all(open.map((mcp) => mcp.close()));
  await Promise.all([anonymous.close(), signedIn.close()]);
});

async function agent(server: RunningServer, sub?: string): Promise<MCPServerStreamableHttp> {
  const requestInit = sub ? { headers: { authorization: await bearer(sub, SECRET) } } : undefined;
  const mcp = new MCPServerStreamableHttp({ url: server.url, name: 'help-desk', requestInit });
  await mcp.connect();
  open.push(mcp);
  return mcp;
}

type Content = { type: string; text?: string }[];
const textOf = (content: unknown) => (content as Content).map((c) => c.text ?? '').join('\n');

/** What the model reads in a pending result's text: the question, and the elicitId to answer with. */
function instructions(text: string): { ask: string; elicitId: string } | undefined {
  const ask = /Ask the user: ("(?:[^"\\]|\\.)*")/.exec(text)?.[1];
  const elicitId = /call sendElicitationResult with elicitId ("(?:[^"\\]|\\.)*")/.exec(text)?.[1];
  return ask && elicitId ? { ask: JSON.parse(ask), elicitId: JSON.parse(elicitId) } : undefined;
}

type Reply = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };

/** The scripted model: calls the tool, and while the result asks, relays the question to `person` and answers. */
async function converse(mcp: MCPServerStreamableHttp, tool: string, args: Record<string, unknown>, person: (question: string) => Reply) {
  const asked: string[] = [];
  let text = textOf(await mcp.callTool(tool, args));
  for (let step = 0; step < 5; step++) {
    const next = instructions(text);
    if (!next) return { asked, text };
    asked.push(next.ask);
    text = textOf(await mcp.callTool('sendElicitationResult', { elicitId: next.elicitId, ...person(next.ask) }));
  }
  throw new Error('the tool kept asking');
}

describe('the OpenAI Agents SDK on 2026-07-28, no elicitation declared', () => {
  it('sees sendElicitationResult listed, and the pending result carries a sealed elicitId', async () => {
    const mcp = await agent(anonymous);
    expect((await mcp.listTools()).map((t) => t.name)).toContain('sendElicitationResult');
    const text = textOf(await mcp.callTool('close_ticket', { id: 'T-1' }));
    expect(instructions(text)).toEqual({
      ask: 'Close ticket T-1? The customer will be notified.',
      elicitId: expect.stringMatching(/^s1\./),
    });
    expect(text).toContain('"confirm"'); // the fields to fill, as JSON Schema
  });

  it('closes a ticket when the person accepts, anonymous', async () => {
    const mcp = await agent(anonymous);
    const { asked, text } = await converse(mcp, 'close_ticket', { id: 'T-1' }, () => ({
      action: 'accept',
      content: { confirm: true, note: 'fixed' },
    }));
    expect(asked).toEqual(['Close ticket T-1? The customer will be notified.']);
    expect(JSON.parse(text)).toEqual({ closed: true, id: 'T-1', note: 'fixed' });
  });

  it('keeps the ticket open when the person declines', async () => {
    const mcp = await agent(anonymous);
    const { text } = await converse(mcp, 'close_ticket', { id: 'T-2' }, () => ({ action: 'decline' }));
    expect(JSON.parse(text)).toEqual({ closed: false, reason: 'The user chose decline' });
  });

  it('asks two questions, the second built on the first answer', async () => {
    const mcp = await agent(anonymous);
    const { asked, text } = await converse(mcp, 'reassign_ticket', { id: 'T-3' }, (question) =>
      question.startsWith('Which team')
        ? { action: 'accept', content: { team: 'engineering' } }
        : { action: 'accept', content: { agent: 'Nour' } },
    );
    expect(asked).toEqual(['Which team should take T-3?', 'Which engineering agent?']);
    expect(JSON.parse(text)).toEqual({ reassigned: true, id: 'T-3', team: 'engineering', agent: 'Nour' });
  });

  it('refuses an answer that does not fit the form, as a round does', async () => {
    const mcp = await agent(anonymous);
    const first = instructions(textOf(await mcp.callTool('reassign_ticket', { id: 'T-3' })))!;
    const result = await mcp.callToolResult('sendElicitationResult', {
      elicitId: first.elicitId,
      action: 'accept',
      content: { team: 'sales' },
    });
    expect(result.isError).toBe(true);
    expect(result._meta).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('completes for a signed-in caller, and refuses their elicitId to anyone else', async () => {
    const nour = await agent(signedIn, 'nour');
    const sam = await agent(signedIn, 'sam');
    const pending = instructions(textOf(await nour.callTool('close_ticket', { id: 'T-4' })))!;
    const stolen = { elicitId: pending.elicitId, action: 'accept', content: { confirm: true } };
    for (const other of [sam, await agent(anonymous)]) {
      const refused = await other.callToolResult('sendElicitationResult', stolen);
      expect(refused.isError).toBe(true);
      expect(textOf(refused.content)).toContain('No pending elicitation found for ID');
    }
    const done = textOf(await nour.callTool('sendElicitationResult', stolen));
    expect(JSON.parse(done)).toEqual({ closed: true, id: 'T-4', note: '' });
  });

  it('refuses a tampered elicitId', async () => {
    const mcp = await agent(anonymous);
    const { elicitId } = instructions(textOf(await mcp.callTool('close_ticket', { id: 'T-5' })))!;
    const parts = elicitId.split('.');
    parts[3] = `${parts[3]!.slice(0, -2)}${parts[3]!.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const forged of [parts.join('.'), `${elicitId}x`]) {
      const refused = await mcp.callToolResult('sendElicitationResult', { elicitId: forged, action: 'accept', content: { confirm: true } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused.content)).toContain('No pending elicitation found for ID');
    }
  });
});
