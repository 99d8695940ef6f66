import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFetchHandler, type ElicitationAnswer, type ElicitationQuestion } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/help-desk/server';
import { Hooked, recordingHooks } from '../fixtures/hooked-app';
import { mcpRequest, read } from '../helpers/requests';

const seen = { questions: [] as ElicitationQuestion[], answers: [] as ElicitationAnswer[] };
const hooked = { ...config, apps: [...config.apps!, Hooked], elicitation: { enabled: true, hooks: recordingHooks(seen) } };
beforeEach(() => {
  seen.questions.length = 0;
  seen.answers.length = 0;
});

describe('elicitation hooks over HTTP, 2026-07-28', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve(hooked, { port: 0 });
  });
  afterAll(() => server.close());

  async function open(content: Record<string, string | boolean>) {
    const client = new Client(
      { name: 'hooks-test', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    return { client, asked };
  }

  it('shows the request hook the tool, the message and the schema, and asks the message it returns', async () => {
    const { client, asked } = await open({ color: 'teal' });
    const result = await client.callTool({ name: 'pick_color', arguments: {} });
    expect(result.structuredContent).toEqual({ status: 'accept', color: 'teal' });
    expect(asked).toEqual(['[desk] Which color?']);
    expect(seen.questions).toHaveLength(1);
    expect(seen.questions[0]).toMatchObject({
      tool: 'pick_color',
      key: 'elicitation-1',
      mode: 'form',
      message: 'Which color?',
      auth: { user: { sub: 'anonymous' } },
    });
    expect(seen.questions[0]!.requestedSchema).toMatchObject({
      type: 'object',
      properties: { color: { type: 'string' } },
      required: ['color'],
    });
    expect(seen.answers).toEqual([
      expect.objectContaining({ tool: 'pick_color', message: 'Which color?', result: { status: 'accept', content: { color: 'teal' } } }),
    ]);
    await client.close();
  });

  it('fails the call when the request hook refuses, and nothing is asked', async () => {
    const { client, asked } = await open({ password: 'hunter2' });
    const result = await client.callTool({ name: 'ask_password', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'Refused: forms must not ask for passwords' }]);
    expect(asked).toEqual([]);
    await client.close();
  });

  it('fails the call when the result hook rejects the answer', async () => {
    const { client } = await open({ color: 'plaid' });
    const result = await client.callTool({ name: 'pick_color', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'Rejected: plaid is not a color' }]);
    expect(seen.answers.map((a) => a.result)).toEqual([{ status: 'accept', content: { color: 'plaid' } }]);
    await client.close();
  });
});

describe('elicitation hooks over HTTP, 2025-11-25 (server-sent elicitation/create)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve(hooked, { port: 0 });
  });
  afterAll(() => server.close());

  async function open(content: Record<string, string>) {
    const client = new V1Client({ name: 'hooks-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content };
    });
    await client.connect(new V1Transport(new URL(server.url)));
    return { client, asked };
  }

  it('asks the reworded question, refuses the password one, and rejects a plaid answer', async () => {
    const { client, asked } = await open({ color: 'teal' });
    expect((await client.callTool({ name: 'pick_color', arguments: {} })).structuredContent).toEqual({ status: 'accept', color: 'teal' });
    expect(asked).toEqual(['[desk] Which color?']);
    expect(seen.questions[0]).toMatchObject({
      tool: 'pick_color',
      message: 'Which color?',
      requestedSchema: { properties: { color: { type: 'string' } } },
    });
    const refused = await client.callTool({ name: 'ask_password', arguments: {} });
    expect(refused.content).toEqual([{ type: 'text', text: 'Refused: forms must not ask for passwords' }]);
    expect(asked).toHaveLength(1);
    await client.close();
    const plaid = await open({ color: 'plaid' });
    const rejected = await plaid.client.callTool({ name: 'pick_color', arguments: {} });
    expect(rejected.isError).toBe(true);
    expect(rejected.content).toEqual([{ type: 'text', text: 'Rejected: plaid is not a color' }]);
    expect(seen.answers.map((a) => a.result)).toEqual([
      { status: 'accept', content: { color: 'teal' } },
      { status: 'accept', content: { color: 'plaid' } },
    ]);
    await plaid.client.close();
  });
});

describe('elicitation hooks across rounds', () => {
  const handler = createFetchHandler(hooked);
  const call = async (args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    (await read(await handler(mcpRequest('tools/call', { name: 'reassign_ticket', arguments: args, ...extra })))).body.result;

  it('runs each hook once per question: an answer replayed from requestState passes no hook again', async () => {
    const first = await call({ id: 'T-2' });
    expect(seen.questions.map((q) => q.message)).toEqual(['Which team should take T-2?']);
    const second = await call(
      { id: 'T-2' },
      { requestState: first.requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { team: 'billing' } } } },
    );
    expect(second.resultType).toBe('input_required');
    const third = await call(
      { id: 'T-2' },
      { requestState: second.requestState, inputResponses: { 'elicitation-2': { action: 'accept', content: { agent: 'Priya' } } } },
    );
    expect(third.structuredContent).toEqual({ reassigned: true, id: 'T-2', team: 'billing', agent: 'Priya' });
    expect(seen.questions.map((q) => q.message)).toEqual(['Which team should take T-2?', 'Which billing agent?']);
    expect(seen.answers.map((a) => [a.key, a.result.status])).toEqual([
      ['elicitation-1', 'accept'],
      ['elicitation-2', 'accept'],
    ]);
  });

  it('runs the result hook on an answer sent before it was asked', async () => {
    const done = await call({ id: 'T-3' }, { inputResponses: { 'elicitation-1': { action: 'decline' } } });
    expect(done.structuredContent).toMatchObject({ reassigned: false });
    expect(seen.questions).toEqual([]);
    expect(seen.answers.map((a) => [a.tool, a.message, a.result.status])).toEqual([
      ['reassign_ticket', 'Which team should take T-3?', 'decline'],
    ]);
  });
});
