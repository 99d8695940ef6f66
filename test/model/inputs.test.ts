import { describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, createFetchHandler } from 'parley-mcp';
import { config } from '../../examples/conformance/server';
import { mcpRequest, meta, read } from '../helpers/requests';

const ALL = { elicitation: {}, sampling: {}, roots: {} };
const nameForm = { type: 'object' as const, properties: { name: { type: 'string' } }, required: ['name'] };
const runs = { after: 0 };

@Tool({ name: 'ask_all_kinds', description: 'Asks two of each kind, the first three at once', inputSchema: {} })
class AskAllKinds extends ToolContext {
  async execute() {
    const [a, s, r] = await Promise.all([this.elicit('Name?', nameForm), this.sample('Hi?'), this.listRoots()]);
    const [a2, s2] = await Promise.all([
      this.elicit('Again?', nameForm),
      this.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Bye?' } }], maxTokens: 5 }),
    ]);
    runs.after++;
    return { names: [a.content?.name, a2.content?.name], model: [s.model, s2.model], roots: r.map((x) => x.uri) };
  }
}

@Tool({ name: 'sample_with_tools', description: 'Samples with tools, which needs sampling.tools', inputSchema: {} })
class SampleWithTools extends ToolContext {
  async execute() {
    const reply = await this.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Use a tool' } }],
      maxTokens: 10,
      tools: [{ name: 't', inputSchema: { type: 'object' } }],
    });
    return reply.role;
  }
}

@Tool({ name: 'twice_same_key', inputSchema: {} })
class TwiceSameKey extends ToolContext {
  async execute() {
    await this.elicit('One', nameForm, { key: 'same' });
    await this.elicit('Two', nameForm, { key: 'same' });
    return 'unreachable';
  }
}

@App({ id: 'inputs', tools: [AskAllKinds, SampleWithTools, TwiceSameKey] })
class Inputs {}

const handler = createFetchHandler({ ...config, apps: [...config.apps!, Inputs] });
const call = async (name: string, extra: Record<string, unknown> = {}, capabilities: Record<string, unknown> = ALL) =>
  read(await handler(mcpRequest('tools/call', { name, arguments: {}, _meta: meta(capabilities), ...extra })));

const sample = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'm-1', stopReason: 'endTurn' });
const roots = { roots: [{ uri: 'file:///work', name: 'work' }] };
const named = (name: string) => ({ action: 'accept', content: { name } });

describe('questions of every kind as input_required rounds', () => {
  it('sends questions asked together in one round, each kind counting its own keys, then finishes', async () => {
    runs.after = 0;
    const first = await call('ask_all_kinds');
    expect(first.body.result.resultType).toBe('input_required');
    expect(Object.keys(first.body.result.inputRequests).sort()).toEqual(['elicitation-1', 'roots-1', 'sampling-1']);
    expect(first.body.result.inputRequests['sampling-1']).toEqual({
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }], maxTokens: 1000 },
    });
    expect(first.body.result.inputRequests['roots-1']).toEqual({ method: 'roots/list', params: {} });
    const second = await call('ask_all_kinds', {
      inputResponses: { 'elicitation-1': named('Ada'), 'sampling-1': sample('hello'), 'roots-1': roots },
      requestState: first.body.result.requestState,
    });
    expect(Object.keys(second.body.result.inputRequests).sort()).toEqual(['elicitation-2', 'sampling-2']);
    const done = await call('ask_all_kinds', {
      inputResponses: { 'elicitation-2': named('Lovelace'), 'sampling-2': sample('bye') },
      requestState: second.body.result.requestState,
    });
    expect(done.body.result.structuredContent).toEqual({ names: ['Ada', 'Lovelace'], model: ['m-1', 'm-1'], roots: ['file:///work'] });
    expect(runs.after).toBe(1);
  });

  it('keeps only the answers the run read in the next state, dropping keys nobody asked for', async () => {
    // The signed form, whose payload the test can read: `<payload JSON>.<key id>.<HMAC>`.
    const signed = createFetchHandler({
      ...config,
      apps: [...config.apps!, Inputs],
      elicitation: { ...config.elicitation, requestState: 'signed' },
    });
    const extra = { inputResponses: { 'elicitation-1': named('Ada'), 'elicitation-9': named('junk'), junk_key: roots } };
    const first = await read(await signed(mcpRequest('tools/call', { name: 'ask_all_kinds', arguments: {}, _meta: meta(ALL), ...extra })));
    const state: string = first.body.result.requestState;
    const body = state.slice(0, state.lastIndexOf('.'));
    const payload = JSON.parse(body.slice(0, body.lastIndexOf('.')));
    expect(Object.keys(payload.answers)).toEqual(['elicitation-1']);
  });

  it('refuses, with -32021 naming what is missing, a question the client did not declare it can answer', async () => {
    const noSampling = await call('ask_all_kinds', {}, { elicitation: {}, roots: {} });
    expect([noSampling.status, noSampling.body.error]).toEqual([
      400,
      expect.objectContaining({ code: -32021, data: { requiredCapabilities: { sampling: {} } } }),
    ]);
    const noRoots = await call('ask_all_kinds', {}, { elicitation: {}, sampling: {} });
    expect(noRoots.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { roots: {} } } });
    const noTools = await call('sample_with_tools', {}, { sampling: {} });
    expect(noTools.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: { tools: {} } } } });
    const withTools = await call('sample_with_tools', {}, { sampling: { tools: {} } });
    expect(withTools.body.result.inputRequests['sampling-1'].params.tools).toHaveLength(1);
  });

  it("fails the call as a tool error when an answer does not have its method's shape", async () => {
    const bad = await call('ask_all_kinds', {
      inputResponses: { 'elicitation-1': named('Ada'), 'sampling-1': { content: 'no role' }, 'roots-1': roots },
    });
    expect(bad.body.result).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
    expect(bad.body.result.content[0].text).toContain('CreateMessageResult');
    const badRoots = await call('ask_all_kinds', {
      inputResponses: { 'elicitation-1': named('Ada'), 'sampling-1': sample('x'), 'roots-1': { roots: [{ name: 'no uri' }] } },
    });
    expect(badRoots.body.result.content[0].text).toContain('ListRootsResult');
  });

  it('uses the keys the handler chose, and refuses a key used twice in one run', async () => {
    const first = await call('test_input_required_result_elicitation');
    expect(Object.keys(first.body.result.inputRequests)).toEqual(['user_name']);
    const twice = await call('twice_same_key', { inputResponses: { same: named('x') } });
    expect(twice.body.result).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
    expect(twice.body.result.content[0].text).toContain('used twice');
  });

  it('answers a requestState that no Parley server issued with -32602, and a non-string one likewise', async () => {
    const first = await call('test_input_required_result_tampered_state');
    for (const requestState of [`${first.body.result.requestState}-TAMPERED`, 'no-dot-at-all', 42]) {
      const { status, body } = await call('test_input_required_result_tampered_state', {
        inputResponses: { 'elicitation-1': named('x') },
        requestState,
      });
      expect([status, body.error?.code]).toEqual([400, -32602]);
    }
  });

  it('asks only what the client declared, when the handler reads clientCapabilities', async () => {
    const { body } = await call('test_input_required_result_capabilities', {}, { sampling: {} });
    expect(Object.values(body.result.inputRequests).map((r: any) => r.method)).toEqual(['sampling/createMessage']);
  });

  it('still sends parallel questions in one round when an async request hook runs before each', async () => {
    const hooked = createFetchHandler({
      ...config,
      apps: [Inputs],
      elicitation: { enabled: true, hooks: { request: [async (q) => ({ message: `[desk] ${(await Promise.resolve(q)).message}` })] } },
    });
    const { body } = await read(await hooked(mcpRequest('tools/call', { name: 'ask_all_kinds', arguments: {}, _meta: meta(ALL) })));
    expect(Object.keys(body.result.inputRequests).sort()).toEqual(['elicitation-1', 'roots-1', 'sampling-1']);
    expect(body.result.inputRequests['elicitation-1'].params.message).toBe('[desk] Name?');
  });

  it("gathers each request's parallel questions into its own round when many suspend at once", async () => {
    const hooked = createFetchHandler({
      ...config,
      apps: [Inputs],
      elicitation: { enabled: true, hooks: { request: [async (q) => ({ message: (await Promise.resolve(q)).message })] } },
    });
    // Some runs suspend while others are still collecting: each round must hold all three of its own questions.
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        if (i % 3 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
        return read(await hooked(mcpRequest('tools/call', { name: 'ask_all_kinds', arguments: {}, _meta: meta(ALL) })));
      }),
    );
    for (const { body } of answers)
      expect(Object.keys(body.result.inputRequests).sort()).toEqual(['elicitation-1', 'roots-1', 'sampling-1']);
  });
});
