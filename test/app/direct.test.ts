// connect() and createDirect(): in-process calls with no HTTP; connect's handler answers, and its answers are checked.
import { describe, expect, it } from 'vitest';
import { App, connect, createDirect, FrontMcpInstance, Tool, ToolContext, z, type DirectAnswer } from 'parley-mcp';
import { config } from '../../examples/help-desk/server';
import { tickets } from '../../examples/help-desk/store';

@Tool({ name: 'whoami', description: 'Says who called', inputSchema: {} })
class WhoAmI extends ToolContext {
  execute() {
    return { sub: this.auth.user.sub };
  }
}

@Tool({ name: 'hurry', description: 'Asks, and waits 100 ms for the answer', inputSchema: {} })
class Hurry extends ToolContext {
  async execute() {
    const answer = await this.elicit('Quick?', z.object({ ok: z.boolean() }), { ttl: 100 });
    return { answered: answer.status };
  }
}

@App({ id: 'direct', tools: [WhoAmI, Hurry] })
class Direct {}
const probe = { info: { name: 'direct', version: '1.0.0' }, apps: [Direct], elicitation: { enabled: true } };

describe('connect()', () => {
  it('runs tools in this process and asks its handler', async () => {
    const client = await connect(config);
    const asked: string[] = [];
    client.onElicitation((params) => (asked.push(params.message), { action: 'accept', content: { confirm: true, note: 'ok' } }));
    expect((await client.callTool('close_ticket', { id: 'T-1' })).structuredContent).toEqual({ closed: true, id: 'T-1', note: 'ok' });
    expect(asked).toEqual(['Close ticket T-1? The customer will be notified.']);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('delete_ticket');
    await client.dispose();
  });

  it('fails an answer that does not fit with INVALID_INPUT and "Invalid elicitation result content", deleting nothing', async () => {
    tickets.reset();
    const client = await connect(config);
    client.onElicitation(() => ({ action: 'accept', content: { confirm: 'yes' } }));
    const result = await client.callTool('delete_ticket', { id: 't3' });
    expect(result).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
    expect(JSON.stringify(result.content)).toContain('Invalid elicitation result content: confirm: expected boolean');
    expect(tickets.ids()).toEqual(['t1', 't2', 't3']);
    await client.dispose();
  });

  it('declines without a handler', async () => {
    const client = await connect(config);
    expect((await client.callTool('close_ticket', { id: 'T-1' })).structuredContent).toEqual({
      closed: false,
      reason: 'The user chose decline',
    });
    await client.dispose();
  });

  it('times out a handler that never answers, and aborts its signal', async () => {
    const client = await connect(probe);
    let signal: AbortSignal | undefined;
    client.onElicitation((_p, context) => ((signal = context.signal), new Promise<DirectAnswer>(() => {})));
    expect(await client.callTool('hurry')).toMatchObject({ isError: true, _meta: { code: 'ELICITATION_TIMEOUT' } });
    expect(signal?.aborted).toBe(true);
    await client.dispose();
  });

  it('throws what the wire would carry as a JSON-RPC error', async () => {
    const client = await connect(config);
    await expect(client.callTool('no_such_tool')).rejects.toMatchObject({ code: -32602, message: 'Unknown tool: no_such_tool' });
    await client.dispose();
  });
});

describe('createDirect()', () => {
  it('calls as the given caller, anonymous by default', async () => {
    const server = await FrontMcpInstance.createDirect(probe);
    expect((await server.callTool('whoami', {}, { authContext: { user: { sub: 'nour' } } })).structuredContent).toEqual({ sub: 'nour' });
    expect((await server.callTool('whoami')).structuredContent).toEqual({ sub: 'anonymous' });
    await server.dispose();
  });

  it('lists sendElicitationResult and takes a question through it, as the caller who was asked', async () => {
    const server = await createDirect(config);
    expect((await server.listTools()).tools.map((t) => t.name)).toContain('sendElicitationResult');
    const nour = { authContext: { user: { sub: 'nour' } } };
    const asked = await server.callTool('close_ticket', { id: 'T-9' }, nour);
    const { elicitId } = asked._meta!.elicitationPending as { elicitId: string };
    const done = await server.callTool('sendElicitationResult', { elicitId, action: 'accept', content: { confirm: true } }, nour);
    expect(done.structuredContent).toEqual({ closed: true, id: 'T-9', note: '' });
    await server.dispose();
  });
});
