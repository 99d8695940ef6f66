import { describe, expect, it } from 'vitest';
import { App, Prompt, PromptContext, Resource, ResourceContext, ResourceTemplate, Tool, ToolContext, createFetchHandler } from 'parley-mcp';
import { config } from '../../examples/conformance/server';
import { mcpRequest, meta, read } from '../helpers/requests';

@ResourceTemplate({ uriTemplate: 'notes://{owner}/{+path}', name: 'Notes', mimeType: 'text/markdown' })
class Notes extends ResourceContext<{ owner: string; path: string }> {
  execute(_uri: string, { owner, path }: { owner: string; path: string }) {
    if (path === 'missing.md') return undefined;
    return `# ${owner}: ${path}`;
  }
}

@Resource({ uri: 'secrets://vault', name: 'Vault', cache: { ttlMs: 5000, scope: 'private' } })
class Vault extends ResourceContext {
  async execute() {
    const answer = await this.elicit('Unlock the vault?', { type: 'object', properties: { pin: { type: 'string' } }, required: ['pin'] });
    return answer.status === 'accept' ? `opened with ${String(answer.content?.pin)}` : 'still locked';
  }
}

@Prompt({ name: 'broken', description: 'Returns something that is not a prompt' })
class Broken extends PromptContext {
  execute() {
    return 42 as never;
  }
}

@App({ id: 'extra', resources: [Notes, Vault], prompts: [Broken] })
class Extra {}

const handler = createFetchHandler({ ...config, apps: [...config.apps!, Extra] });
const rpc = async (method: string, params: Record<string, unknown> = {}) => read(await handler(mcpRequest(method, params)));

describe('prompts', () => {
  it('lists every prompt with its arguments (without completers) and cache hints', async () => {
    const { body } = await rpc('prompts/list');
    const names = body.result.prompts.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['test_simple_prompt', 'test_prompt_with_arguments', 'broken']));
    const withArgs = body.result.prompts.find((p: { name: string }) => p.name === 'test_prompt_with_arguments');
    expect(withArgs.arguments).toEqual([
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ]);
    expect(body.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
  });

  it('gets a prompt: text becomes one user message, arguments are passed in', async () => {
    const simple = await rpc('prompts/get', { name: 'test_simple_prompt' });
    expect(simple.body.result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
    ]);
    const args = await rpc('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' } });
    expect(args.body.result.messages[0].content.text).toBe("Prompt with arguments: arg1='hello', arg2='world'");
  });

  it('refuses unknown prompts, missing required arguments and non-string arguments with -32602', async () => {
    for (const params of [
      { name: 'nope' },
      { name: 'test_prompt_with_arguments', arguments: { arg1: 'x' } },
      { name: 'test_prompt_with_arguments', arguments: { arg1: 1, arg2: 'y' } },
      {},
    ]) {
      const { status, body } = await rpc('prompts/get', params);
      expect(status).toBe(400);
      expect(body.error.code).toBe(-32602);
    }
    const missing = await rpc('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'x' } });
    expect(missing.body.error.message).toContain('arg2');
  });

  it('hides a prompt that returns garbage behind an internal error id', async () => {
    const { body } = await rpc('prompts/get', { name: 'broken' });
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toMatch(/error id: [0-9a-f-]{36}/);
  });

  it('asks over input_required rounds on prompts/get, then answers with the messages', async () => {
    const first = await rpc('prompts/get', { name: 'test_input_required_result_prompt' });
    expect(first.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_context: { method: 'elicitation/create' } },
    });
    const done = await rpc('prompts/get', {
      name: 'test_input_required_result_prompt',
      inputResponses: { user_context: { action: 'accept', content: { context: 'billing' } } },
      requestState: first.body.result.requestState,
    });
    expect(done.body.result.messages[0].content.text).toBe('Use this context: billing');
  });
});

describe('resources', () => {
  it('lists fixed resources and templates, each with cache hints', async () => {
    const list = await rpc('resources/list');
    expect(list.body.result.resources).toContainEqual({
      uri: 'test://static-text',
      name: 'Static text',
      description: 'A static text resource',
      mimeType: 'text/plain',
    });
    expect(list.body.result).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    const templates = await rpc('resources/templates/list');
    expect(templates.body.result.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual([
      'test://template/{id}/data',
      'notes://{owner}/{+path}',
    ]);
    expect(templates.body.result.resourceTemplates[0]).not.toHaveProperty('complete');
  });

  it('reads text and binary resources, filling in uri and mimeType', async () => {
    const text = await rpc('resources/read', { uri: 'test://static-text' });
    expect(text.body.result).toMatchObject({
      contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
      ttlMs: 60_000,
      cacheScope: 'public',
    });
    const binary = await rpc('resources/read', { uri: 'test://static-binary' });
    expect(binary.body.result.contents[0]).toMatchObject({
      uri: 'test://static-binary',
      mimeType: 'image/png',
      blob: expect.stringMatching(/^iVBOR/),
    });
  });

  it('matches templates: simple variables stop at a slash and are decoded, reserved ones span slashes', async () => {
    const data = await rpc('resources/read', { uri: 'test://template/a%20b/data' });
    expect(JSON.parse(data.body.result.contents[0].text)).toEqual({ id: 'a b', templateTest: true, data: 'Data for ID: a b' });
    const note = await rpc('resources/read', { uri: 'notes://nour/2026/plan.md' });
    expect(note.body.result.contents[0]).toEqual({
      uri: 'notes://nour/2026/plan.md',
      mimeType: 'text/markdown',
      text: '# nour: 2026/plan.md',
    });
    const slash = await rpc('resources/read', { uri: 'test://template/a/b/data' });
    expect(slash.body.error).toMatchObject({ code: -32602, data: { uri: 'test://template/a/b/data' } });
  });

  it('answers an unknown URI, and a handler that finds nothing, with -32602 naming the uri: never empty contents', async () => {
    for (const uri of ['test://nope', 'notes://nour/missing.md', 'test://template/%E0%A4%A/data']) {
      const { status, body } = await rpc('resources/read', { uri });
      expect(status).toBe(400);
      expect(body.error).toEqual({ code: -32602, message: 'Resource not found', data: { uri } });
    }
  });

  it('asks over input_required rounds on resources/read; the retry result is not cacheable', async () => {
    const first = await rpc('resources/read', { uri: 'secrets://vault' });
    expect(first.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { 'elicitation-1': { method: 'elicitation/create' } },
    });
    expect(first.body.result).not.toHaveProperty('ttlMs');
    const done = await rpc('resources/read', {
      uri: 'secrets://vault',
      inputResponses: { 'elicitation-1': { action: 'accept', content: { pin: '1234' } } },
      requestState: first.body.result.requestState,
    });
    expect(done.body.result).toMatchObject({ contents: [{ text: 'opened with 1234' }], ttlMs: 0, cacheScope: 'private' });
  });
});

describe('completion/complete', () => {
  it('suggests prompt argument and template variable values from their completers', async () => {
    const prompt = await rpc('completion/complete', {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(prompt.body.result.completion).toEqual({ values: ['paris', 'park', 'party'], total: 3, hasMore: false });
    const template = await rpc('completion/complete', {
      ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
      argument: { name: 'id', value: '4' },
    });
    expect(template.body.result.completion.values).toEqual(['456']);
    const none = await rpc('completion/complete', {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg2', value: 'x' },
    });
    expect(none.body.result.completion).toEqual({ values: [], total: 0, hasMore: false });
  });

  it('refuses an unknown ref or a malformed argument with -32602', async () => {
    for (const params of [
      { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } },
      { ref: { type: 'ref/other' }, argument: { name: 'a', value: '' } },
      { ref: { type: 'ref/prompt', name: 'test_simple_prompt' } },
    ]) {
      expect((await rpc('completion/complete', params)).body.error.code).toBe(-32602);
    }
  });
});

describe('server/discover declares what exists', () => {
  @Tool({ name: 'only_tool', inputSchema: {} })
  class OnlyTool extends ToolContext {
    execute() {
      return 'ok';
    }
  }
  @App({ id: 'tools-only', tools: [OnlyTool] })
  class ToolsOnly {}
  const bare = createFetchHandler({ info: { name: 'bare', version: '1.0.0' }, apps: [ToolsOnly] });

  it('declares prompts, resources and completions only when the server has them, and answers the rest with 404 -32601', async () => {
    const full = await rpc('server/discover');
    expect(full.body.result.capabilities).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
      logging: {},
      // The fixture's skills and task tools: the two extensions, which a server without them (below) does not declare.
      extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true }, 'io.modelcontextprotocol/tasks': {} },
    });
    const discover = await read(await bare(mcpRequest('server/discover')));
    expect(discover.body.result.capabilities).toEqual({ tools: { listChanged: true }, logging: {} });
    for (const method of ['prompts/list', 'resources/list', 'resources/templates/list', 'completion/complete']) {
      const { status, body } = await read(await bare(mcpRequest(method)));
      expect([status, body.error.code]).toEqual([404, -32601]);
    }
  });

  it('never answers input_required outside tools/call, prompts/get and resources/read', async () => {
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'server/discover']) {
      const { body } = await read(await handler(mcpRequest(method, { _meta: meta({ elicitation: {} }) })));
      expect(body.result.resultType).toBe('complete');
    }
  });
});
