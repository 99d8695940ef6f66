import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/conformance/server';
import { legacyPost, openLegacySession, request, sseReader } from '../helpers/legacy';

let server: RunningServer;
beforeAll(async () => {
  server = await serve(config, { port: 0 });
});
afterAll(() => server.close());

type Handlers = { sample?: (params: any) => unknown; roots?: () => unknown; elicit?: (params: any) => unknown };
interface Connected {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, any>>;
  close(): Promise<void>;
  version?: string;
}

/** Declares elicitation always (so no fallback), and sampling and roots only when given their handlers. */
const capabilitiesOf = (h: Handlers) => ({ elicitation: {}, ...(h.sample ? { sampling: {} } : {}), ...(h.roots ? { roots: {} } : {}) });
const elicitOrCancel = (h: Handlers, params: unknown) => (h.elicit ? h.elicit(params) : { action: 'cancel' });

const CLIENTS: Record<string, (h: Handlers) => Promise<Connected>> = {
  'the official v1 client': async (h) => {
    const client = new V1Client({ name: 'v1-sampling', version: '1.0.0' }, { capabilities: capabilitiesOf(h) });
    client.setRequestHandler(ElicitRequestSchema, async (r) => elicitOrCancel(h, r.params) as any);
    if (h.sample) client.setRequestHandler(CreateMessageRequestSchema, async (r) => h.sample!(r.params) as any);
    if (h.roots) client.setRequestHandler(ListRootsRequestSchema, async () => h.roots!() as any);
    const transport = new V1Transport(new URL(server.url));
    await client.connect(transport);
    return Object.assign(client, { version: transport.protocolVersion }) as unknown as Connected;
  },
  'the official v2 client in legacy mode': async (h) => {
    const client = new V2Client({ name: 'v2-sampling', version: '1.0.0' }, { capabilities: capabilitiesOf(h) });
    client.setRequestHandler('elicitation/create', async (r) => elicitOrCancel(h, r.params) as any);
    if (h.sample) client.setRequestHandler('sampling/createMessage', async (r) => h.sample!(r.params) as any);
    if (h.roots) client.setRequestHandler('roots/list', async () => h.roots!() as any);
    const transport = new V2Transport(new URL(server.url));
    await client.connect(transport);
    return Object.assign(client, { version: transport.protocolVersion }) as unknown as Connected;
  },
};

const reply = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'test-model', stopReason: 'endTurn' });
const textOf = (result: Record<string, any>) => result.content?.[0]?.text as string;

describe.each(Object.entries(CLIENTS))('%s (2025-11-25): sample() and listRoots() ask on the call stream', (_name, open) => {
  const clients: Connected[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  const connect = async (h: Handlers) => {
    const client = await open(h);
    clients.push(client);
    return client;
  };

  it('sends sampling/createMessage and goes on with the model reply', async () => {
    const asked: any[] = [];
    const client = await connect({ sample: (p) => (asked.push(p), reply('Paris')) });
    expect(client.version).toBe('2025-11-25');
    const result = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Capital of France?' } });
    expect(asked).toEqual([{ messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }], maxTokens: 100 }]);
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('LLM response: Paris');
  });

  it('sends roots/list and goes on with the roots', async () => {
    const client = await connect({ roots: () => ({ roots: [{ uri: 'file:///work', name: 'work' }, { uri: 'file:///tmp' }] }) });
    const result = await client.callTool({ name: 'test_input_required_result_list_roots', arguments: {} });
    expect(textOf(result)).toBe('Roots: file:///work, file:///tmp');
  });

  it('asks an elicitation, a sample and the roots at once on one stream, and gets each answer to its question', async () => {
    const client = await connect({
      elicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
      sample: () => reply('Paris'),
      roots: () => ({ roots: [{ uri: 'file:///a' }] }),
    });
    const result = await client.callTool({ name: 'test_input_required_result_multiple_inputs', arguments: {} });
    expect(textOf(result)).toBe('name: Ada; model: Paris; roots: 1');
  });

  it('fails the call with INPUT_NOT_SUPPORTED, asking nothing, when the client declared no sampling', async () => {
    const client = await connect({});
    const result = await client.callTool({ name: 'test_missing_capability', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result._meta?.code).toBe('INPUT_NOT_SUPPORTED');
    expect(textOf(result)).toContain('`sampling` client capability');
  });

  it("fails the call with the client's error when it refuses to sample", async () => {
    const client = await connect({
      sample: () => {
        throw new Error('User rejected sampling request');
      },
    });
    const result = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Hi' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The client answered sampling\/createMessage with an error \(-?\d+: .*User rejected sampling request/);
  });
});

describe('a sampling answer sent by hand (2025-11-25)', () => {
  const handler = createFetchHandler(config);

  /** Calls test_sampling, answers its sampling/createMessage with `answer`, and returns the call's final result. */
  async function sampleWith(answer: Record<string, unknown>) {
    const session = await openLegacySession(handler, { elicitation: {}, sampling: {} });
    const events = sseReader(
      await handler(legacyPost(request('tools/call', { name: 'test_sampling', arguments: { prompt: 'Hi' } }), session)),
    );
    const asked = (await events.next())!.data;
    expect(asked).toMatchObject({ jsonrpc: '2.0', method: 'sampling/createMessage', params: { maxTokens: 100 } });
    const posted = await handler(legacyPost({ jsonrpc: '2.0', id: asked.id, ...answer }, session));
    expect(posted.status).toBe(202);
    return (await events.next())!.data.result;
  }

  it('fails the call with INVALID_INPUT when the reply is not a CreateMessageResult', async () => {
    const result = await sampleWith({ result: { model: 'm', content: 'just a string' } });
    expect(result.isError).toBe(true);
    expect(result._meta.code).toBe('INVALID_INPUT');
    expect(result.content[0].text).toContain('not a CreateMessageResult');
  });

  it('passes every field of a good reply to the tool', async () => {
    const result = await sampleWith({ result: reply('Bonjour') });
    expect(result.content[0].text).toBe('LLM response: Bonjour');
  });

  it('refuses an answer from another session: the question stays open for its own', async () => {
    const session = await openLegacySession(handler, { elicitation: {}, sampling: {} });
    const other = await openLegacySession(handler, { elicitation: {}, sampling: {} });
    const events = sseReader(
      await handler(legacyPost(request('tools/call', { name: 'test_sampling', arguments: { prompt: 'Hi' } }), session)),
    );
    const asked = (await events.next())!.data;
    expect((await handler(legacyPost({ jsonrpc: '2.0', id: asked.id, result: reply('from the other session') }, other))).status).toBe(410);
    expect((await handler(legacyPost({ jsonrpc: '2.0', id: asked.id, result: reply('mine') }, session))).status).toBe(202);
    expect((await events.next())!.data.result.content[0].text).toBe('LLM response: mine');
  });
});
