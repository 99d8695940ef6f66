import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// One server process for the file: a stdio server serves one client, and each test asks it in turn.
let client: Client;
let transport: StdioClientTransport;
let stderr = '';
const asked: string[] = [];
let answer: (message: string) => ElicitResult | Promise<ElicitResult> = () => ({ action: 'cancel' });

beforeAll(async () => {
  client = new Client({ name: 'v1-stdio-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return answer(request.params.message);
  });
  transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--conditions=parley-source', '--import', 'tsx', 'test/fixtures/stdio-server.ts'],
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
});
afterAll(() => client.close());

describe('the official v1 client over stdio (2025-11-25, server-sent elicitation/create)', () => {
  it('initializes a legacy session', () => {
    expect(client.getServerVersion()).toEqual({ name: 'help-desk', version: '1.0.0' });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('completes the ticket tools through elicitation', async () => {
    asked.length = 0;
    answer = (m): ElicitResult =>
      m.startsWith('Delete')
        ? { action: 'cancel' }
        : m.startsWith('Close')
          ? { action: 'accept', content: { confirm: true, note: 'done' } }
          : m.startsWith('Which team')
            ? { action: 'accept', content: { team: 'engineering' } }
            : { action: 'accept', content: { agent: 'Lee' } };
    expect((await client.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } })).structuredContent).toEqual({
      closed: true,
      id: 'T-1',
      note: 'done',
    });
    expect((await client.callTool({ name: 'reassign_ticket', arguments: { id: 'T-2' } })).structuredContent).toEqual({
      reassigned: true,
      id: 'T-2',
      team: 'engineering',
      agent: 'Lee',
    });
    expect(asked).toEqual(['Close ticket T-1? The customer will be notified.', 'Which team should take T-2?', 'Which engineering agent?']);
    const declined = await client.callTool({ name: 'delete_ticket', arguments: { id: 't1' } });
    expect(declined.content).toEqual([{ type: 'text', text: 'not deleted: the user cancelled' }]);
  });

  it('fails an unanswered question with ELICITATION_TIMEOUT once its ttl passes', async () => {
    answer = () => new Promise(() => {}); // the person never answers
    const result = await client.callTool({ name: 'confirm_quickly', arguments: { id: 'T-7' } });
    expect(result.isError).toBe(true);
    expect(result._meta).toMatchObject({ code: 'ELICITATION_TIMEOUT' });
    expect(result.content).toEqual([{ type: 'text', text: 'Elicitation request timed out' }]);
  });

  it('runs the elicitation hooks', async () => {
    asked.length = 0;
    answer = () => ({ action: 'accept', content: { color: 'plaid' } });
    const rejected = await client.callTool({ name: 'pick_color', arguments: {} });
    expect(asked).toEqual(['[desk] Which color?']);
    expect(rejected.content).toEqual([{ type: 'text', text: 'Rejected: plaid is not a color' }]);
    const refused = await client.callTool({ name: 'ask_password', arguments: {} });
    expect(refused.content).toEqual([{ type: 'text', text: 'Refused: forms must not ask for passwords' }]);
    expect(asked).toHaveLength(1);
  });

  it('keeps stdout clean when a tool writes to it', async () => {
    expect((await client.callTool({ name: 'noisy', arguments: {} })).content).toEqual([{ type: 'text', text: 'said hello' }]);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('noisy');
    await expect.poll(() => stderr).toContain('hello from console.log');
  });

  it('sends notifications/resources/updated for a subscribed resource, and none once unsubscribed', async () => {
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => void updated.push(n.params.uri));
    expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
    await client.subscribeResource({ uri: 'desk://status' });
    await client.callTool({ name: 'touch_status', arguments: {} });
    await expect.poll(() => updated).toEqual(['desk://status']);
    await client.unsubscribeResource({ uri: 'desk://status' });
    await client.callTool({ name: 'touch_status', arguments: {} });
    // An update would have gone out before the call's result, on the same stdout.
    expect(updated).toEqual(['desk://status']);
  });
});

describe('the official v1 client over stdio, declaring no elicitation: the sendElicitationResult fallback', () => {
  let plain: Client;
  beforeAll(async () => {
    plain = new Client({ name: 'v1-stdio-plain', version: '1.0.0' }, { capabilities: {} });
    await plain.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--conditions=parley-source', '--import', 'tsx', 'test/fixtures/stdio-server.ts'],
        stderr: 'pipe',
      }),
    );
  });
  afterAll(() => plain.close());

  it('lists the fallback tool, returns the question as pending, and finishes the tool with the answer', async () => {
    expect((await plain.listTools()).tools.map((t) => t.name)).toContain('sendElicitationResult');
    const asked = await plain.callTool({ name: 'close_ticket', arguments: { id: 'T-4' } });
    const pending = (asked._meta as { elicitationPending?: { elicitId: string; message: string } }).elicitationPending;
    expect(pending?.message).toBe('Close ticket T-4? The customer will be notified.');
    const done = await plain.callTool({
      name: 'sendElicitationResult',
      arguments: { elicitId: pending!.elicitId, action: 'accept', content: { confirm: true } },
    });
    expect(done.structuredContent).toEqual({ closed: true, id: 'T-4', note: '' });
    const again = await plain.callTool({
      name: 'sendElicitationResult',
      arguments: { elicitId: pending!.elicitId, action: 'accept', content: { confirm: true } },
    });
    expect(again.isError).toBe(true);
    expect(JSON.stringify(again.content)).toContain(`No pending elicitation found for ID: ${pending!.elicitId}`);
  });
});
