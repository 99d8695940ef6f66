import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from 'parley-mcp/node';
import { legacyDesk } from '../fixtures/legacy-desk';

let server: RunningServer;
beforeAll(async () => {
  server = await serve(legacyDesk(), { port: 0 });
});
afterAll(() => server.close());

type Params = { message: string; requestedSchema?: { required?: string[] } };
type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean | string[]> };
type AnswerFn = (params: Params) => Answer | Promise<Answer>;
interface Connected {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, any>>;
  listTools(): Promise<{ tools: { name: string }[] }>;
  close(): Promise<void>;
  version?: string;
  sessionId?: string;
}

// Each client connects with the elicitation capability when given a handler, and without it otherwise.
const CLIENTS: Record<string, (answer?: AnswerFn) => Promise<Connected>> = {
  'the official v1 client': async (answer) => {
    const client = new V1Client({ name: 'v1-test', version: '1.0.0' }, { capabilities: answer ? { elicitation: {} } : {} });
    if (answer) client.setRequestHandler(ElicitRequestSchema, async (r) => answer(r.params as Params));
    const transport = new V1Transport(new URL(server.url));
    await client.connect(transport);
    return Object.assign(client, { version: transport.protocolVersion, sessionId: transport.sessionId }) as unknown as Connected;
  },
  'the official v2 client in legacy mode': async (answer) => {
    const client = new V2Client({ name: 'v2-test', version: '1.0.0' }, { capabilities: answer ? { elicitation: {} } : {} });
    if (answer) client.setRequestHandler('elicitation/create', async (r) => answer(r.params as Params));
    const transport = new V2Transport(new URL(server.url));
    await client.connect(transport);
    return Object.assign(client, { version: transport.protocolVersion, sessionId: transport.sessionId }) as unknown as Connected;
  },
};

describe.each(Object.entries(CLIENTS))('%s (2025-11-25) and server-initiated elicitation', (_name, open) => {
  const clients: Connected[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  const connect = async (answer?: AnswerFn) => {
    const asked: Params[] = [];
    const client = await open(answer && ((p) => (asked.push(p), answer(p))));
    clients.push(client);
    return { client, asked };
  };

  it('negotiates 2025-11-25 and gets a session', async () => {
    const { client } = await connect(() => ({ action: 'cancel' }));
    expect(client.version).toBe('2025-11-25');
    expect(client.sessionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
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
    expect(rejected._meta?.code).toBe('INVALID_INPUT');
    expect(JSON.stringify(rejected.content)).toContain('does not match the requested schema');
  });

  it('reassigns a ticket with two questions on one call', async () => {
    const { client, asked } = await connect(
      (p): Answer =>
        p.message.startsWith('Which team')
          ? { action: 'accept', content: { team: 'engineering' } }
          : { action: 'accept', content: { agent: 'Lee' } },
    );
    const result = await client.callTool({ name: 'reassign_ticket', arguments: { id: 'T-2' } });
    expect(asked.map((p) => p.message)).toEqual(['Which team should take T-2?', 'Which engineering agent?']);
    expect(result.structuredContent).toEqual({ reassigned: true, id: 'T-2', team: 'engineering', agent: 'Lee' });
  });

  it('fails the call with ELICITATION_TIMEOUT when the client never answers', async () => {
    const { client } = await connect(() => new Promise<Answer>(() => {}));
    const result = await client.callTool({ name: 'confirm_quickly', arguments: { id: 'T-9' } });
    expect(result.isError).toBe(true);
    expect(result._meta?.code).toBe('ELICITATION_TIMEOUT');
    expect(JSON.stringify(result.content)).toContain('Elicitation request timed out');
  });

  it('without the capability, lists sendElicitationResult and finishes a tool through it', async () => {
    const { client } = await connect();
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('sendElicitationResult');
    const asked = await client.callTool({ name: 'close_owned', arguments: { id: 'T-8' } });
    const { elicitId, message } = asked._meta?.elicitationPending ?? {};
    expect(message).toBe('Close ticket T-8?');
    const done = await client.callTool({
      name: 'sendElicitationResult',
      arguments: { elicitId, action: 'accept', content: { confirm: true } },
    });
    expect(done.structuredContent).toEqual({ closed: true, by: 'anonymous' });
  });
});
