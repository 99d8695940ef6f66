import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from 'parley-mcp/node';
import Server from '../../examples/conformance/server';

let server: RunningServer;
let client: Client;
const asked: string[] = [];

beforeAll(async () => {
  server = await serve(Server, { port: 0 });
  client = new Client(
    { name: 'v2-surface', version: '1.0.0' },
    { capabilities: { elicitation: {}, sampling: {}, roots: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(`elicit: ${request.params.message}`);
    return { action: 'accept', content: { name: 'Ada', context: 'billing' } };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    asked.push('sample');
    return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model', stopReason: 'endTurn' };
  });
  client.setRequestHandler('roots/list', async () => {
    asked.push('roots');
    return { roots: [{ uri: 'file:///work', name: 'work' }] };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe('the official v2 client, pinned to 2026-07-28, on prompts, resources, progress and every question kind', () => {
  it('lists and gets prompts, answering a prompt that asks', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('test_prompt_with_arguments');
    const got = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
    expect(got.messages[0]!.content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" });
    asked.length = 0;
    const asking = await client.getPrompt({ name: 'test_input_required_result_prompt' });
    expect(asking.messages[0]!.content).toEqual({ type: 'text', text: 'Use this context: billing' });
    expect(asked).toEqual(['elicit: What context should the prompt use?']);
  });

  it('lists resources and templates and reads both kinds', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('test://static-text');
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['test://template/{id}/data']);
    const read = await client.readResource({ uri: 'test://template/42/data' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: '42' });
  });

  it('receives increasing progress while a tool runs', async () => {
    const seen: number[] = [];
    const result = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([0, 50, 100]);
    expect(result.content).toEqual([{ type: 'text', text: 'Progress reported: 0, 50, 100 of 100.' }]);
  });

  it('answers an elicitation, a sample and the roots asked in one round', async () => {
    asked.length = 0;
    const result = await client.callTool({ name: 'test_input_required_result_multiple_inputs', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'name: Ada; model: Paris; roots: 1' }]);
    expect([...asked].sort()).toEqual(['elicit: What is your name?', 'roots', 'sample']);
  });
});
