// Scopes on tools, prompts and resources: 403 insufficient_scope before execute() on every run (the first call, each
// input_required retry, an older client's call before its stream opens), a function form, and lists the same for all.
import { describe, expect, it } from 'vitest';
import { App, createFetchHandler, Prompt, PromptContext, Resource, ResourceContext, Tool, ToolContext, z, type AuthInfo } from 'parley-mcp';
import { legacyPost, openLegacySession, request as rpc } from '../helpers/legacy';
import { mcpRequest, read } from '../helpers/requests';

const runs = { close: 0 };

@Tool({
  name: 'close_ticket',
  description: 'Closes a ticket once the person confirms',
  inputSchema: { id: z.string() },
  scopes: ['tickets:write'],
})
class CloseTicket extends ToolContext {
  async execute({ id }: { id: string }) {
    runs.close++;
    const answer = await this.elicit(`Close ${id}?`, z.object({ confirm: z.boolean() }));
    return { closed: answer.status === 'accept' && answer.content?.confirm === true, id };
  }
}

@Tool({
  name: 'refund',
  description: 'Refunds an amount; a large one needs another scope',
  inputSchema: { amount: z.number() },
  scopes: (args) => ((args.amount as number) > 100 ? ['refunds:large'] : ['refunds']),
})
class Refund extends ToolContext {
  execute({ amount }: { amount: number }) {
    return { refunded: amount };
  }
}

@Prompt({ name: 'triage', description: 'Triage notes', scopes: ['tickets:read'] })
class Triage extends PromptContext {
  execute() {
    return 'Triage the queue';
  }
}

@Resource({ uri: 'desk://audit', name: 'audit', description: 'The audit log', scopes: ['audit:read'] })
class Audit extends ResourceContext {
  execute() {
    return { text: 'nothing yet' };
  }
}

@App({ id: 'desk', tools: [CloseTicket, Refund], prompts: [Triage], resources: [Audit] })
class Desk {}

const handler = createFetchHandler({
  info: { name: 'desk', version: '1.0.0' },
  apps: [Desk],
  elicitation: { enabled: true },
  auth: { issuer: 'https://idp.example', requiredScopes: ['desk'] },
});
const caller = (...scopes: string[]): AuthInfo => ({ user: { sub: 'nour', iss: 'https://idp.example' }, scopes: ['desk', ...scopes] });
const toolCall = (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  mcpRequest('tools/call', { name, arguments: args, ...extra });

describe('scopes on a tool', () => {
  it('refuses a caller without the scope with 403 naming every scope needed, before execute() runs', async () => {
    const before = runs.close;
    const response = await handler(toolCall('close_ticket', { id: 'T-1' }), { auth: caller('tickets:read') });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(response.headers.get('www-authenticate')).toContain('scope="desk tickets:write"');
    expect(response.headers.get('www-authenticate')).toContain(
      'resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"',
    );
    expect(runs.close).toBe(before);
  });

  it('checks again on the input_required retry: a token that lost the scope cannot finish the call', async () => {
    const first = await read(await handler(toolCall('close_ticket', { id: 'T-2' }), { auth: caller('tickets:write') }));
    expect(first.body.result.resultType).toBe('input_required');
    const retry = {
      inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } },
      requestState: first.body.result.requestState,
    };
    expect((await handler(toolCall('close_ticket', { id: 'T-2' }, retry), { auth: caller('tickets:read') })).status).toBe(403);
    const done = await read(await handler(toolCall('close_ticket', { id: 'T-2' }, retry), { auth: caller('tickets:write') }));
    expect(done.body.result.structuredContent).toEqual({ closed: true, id: 'T-2' });
  });

  it('takes a function of the arguments: a large refund needs refunds:large', async () => {
    const small = await read(await handler(toolCall('refund', { amount: 20 }), { auth: caller('refunds') }));
    expect(small.body.result.structuredContent).toEqual({ refunded: 20 });
    const large = await handler(toolCall('refund', { amount: 500 }), { auth: caller('refunds') });
    expect(large.status).toBe(403);
    expect(large.headers.get('www-authenticate')).toContain('scope="desk refunds:large"');
  });

  it("refuses an older client's call with 403 before its stream opens", async () => {
    const as = (auth: AuthInfo) => (request: Request) => handler(request, { auth });
    const session = await openLegacySession(as(caller()));
    const response = await as(caller('tickets:read'))(
      legacyPost(rpc('tools/call', { name: 'close_ticket', arguments: { id: 'T-3' } }), session),
    );
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('scope="desk tickets:write"');
  });

  it('lists the same tools, prompts and resources to every caller', async () => {
    for (const method of ['tools/list', 'prompts/list', 'resources/list']) {
      const lists = await Promise.all(
        [caller(), caller('tickets:write', 'refunds', 'tickets:read', 'audit:read')].map(
          async (auth) => (await read(await handler(mcpRequest(method), { auth }))).body.result,
        ),
      );
      expect(lists[0]).toEqual(lists[1]);
      expect(JSON.stringify(lists[0])).not.toContain('scopes');
    }
  });
});

describe('scopes on prompts and resources', () => {
  it('refuses prompts/get and resources/read without the scope, and answers with it', async () => {
    const prompt = mcpRequest('prompts/get', { name: 'triage' });
    expect((await handler(prompt, { auth: caller() })).status).toBe(403);
    expect((await handler(mcpRequest('prompts/get', { name: 'triage' }), { auth: caller('tickets:read') })).status).toBe(200);
    const audit = await handler(mcpRequest('resources/read', { uri: 'desk://audit' }), { auth: caller('tickets:read') });
    expect(audit.status).toBe(403);
    expect(audit.headers.get('www-authenticate')).toContain('scope="desk audit:read"');
    expect((await handler(mcpRequest('resources/read', { uri: 'desk://audit' }), { auth: caller('audit:read') })).status).toBe(200);
  });

  it('refuses at startup a scopes option that is not a list of scope strings', async () => {
    @Tool({ name: 'bad', description: 'Bad scopes', scopes: 'tickets:write' as never })
    class Bad extends ToolContext {
      execute() {
        return {};
      }
    }
    @App({ id: 'bad', tools: [Bad] })
    class BadApp {}
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      expect((await createFetchHandler({ info: { name: 'b', version: '1' }, apps: [BadApp] })(mcpRequest('tools/list'))).status).toBe(503);
    } finally {
      console.error = original;
    }
    expect(errors.join('\n')).toContain('Tool "bad": scopes must be a list of scope strings');
  });
});
