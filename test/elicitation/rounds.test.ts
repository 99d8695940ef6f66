import { describe, expect, it, vi } from 'vitest';
import { App, Tool, ToolContext, createFetchHandler, z } from 'parley-mcp';
import { config } from '../../examples/help-desk/server';
import { mcpRequest, meta, read } from '../helpers/requests';

const runs = { before: 0, after: 0 };

@Tool({ name: 'counted_close', description: 'Counts what runs before and after the question', inputSchema: { id: z.string() } })
class CountedClose extends ToolContext {
  async execute({ id }: { id: string }) {
    runs.before++;
    const answer = await this.elicit(`Close ${id}?`, z.object({ confirm: z.boolean() }));
    if (answer.status === 'accept' && answer.content?.confirm) runs.after++;
    return { closed: answer.status === 'accept', before: runs.before, after: runs.after };
  }
}

@Tool({ name: 'with_default', description: 'Fills defaults', inputSchema: {} })
class WithDefault extends ToolContext {
  async execute() {
    const answer = await this.elicit('Priority?', z.object({ level: z.number().int().default(3), note: z.string().optional() }));
    return { answer };
  }
}

@App({ id: 'extra', tools: [CountedClose, WithDefault] })
class Extra {}

const warnings: string[] = [];
const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
const handler = createFetchHandler({ ...config, apps: [...config.apps!, Extra], logger });
const auth = (sub: string) => ({ auth: { user: { sub, iss: 'https://idp.example' } } });

const handlers = {
  sealed: handler,
  signed: createFetchHandler({
    ...config,
    apps: [...config.apps!, Extra],
    logger,
    elicitation: { ...config.elicitation, requestState: 'signed' },
  }),
};
const callOn = async (
  on: typeof handler,
  name: string,
  args: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  options = auth('nour'),
) => (await read(await on(mcpRequest('tools/call', { name, arguments: args, ...extra }), options))).body;
const call = (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}, options = auth('nour')) =>
  callOn(handler, name, args, extra, options);

const accept = (content: Record<string, unknown>) => ({ 'elicitation-1': { action: 'accept', content } });

describe('this.elicit() as input_required rounds', () => {
  it('asks, then finishes on the retry with the state it was given', async () => {
    const first = await call('close_ticket', { id: 'T-1' });
    expect(first.result.resultType).toBe('input_required');
    expect(first.result.inputRequests['elicitation-1']).toMatchObject({
      method: 'elicitation/create',
      params: { message: expect.stringContaining('T-1') },
    });
    const done = await call(
      'close_ticket',
      { id: 'T-1' },
      { inputResponses: accept({ confirm: true }), requestState: first.result.requestState },
    );
    expect(done.result).toMatchObject({ resultType: 'complete', structuredContent: { closed: true, id: 'T-1', note: '' } });
  });

  it('runs code before the question once per round, and code after it once', async () => {
    runs.before = 0;
    runs.after = 0;
    const first = await call('counted_close', { id: 'T-9' });
    const done = await call(
      'counted_close',
      { id: 'T-9' },
      { inputResponses: accept({ confirm: true }), requestState: first.result.requestState },
    );
    expect(done.result.structuredContent).toEqual({ closed: true, before: 2, after: 1 });
  });

  it('fills defaults and drops unknown fields from an accepted answer', async () => {
    const done = await call('with_default', {}, { inputResponses: accept({ note: 'hi', extra: 'dropped' }) });
    expect(done.result.structuredContent).toEqual({ answer: { status: 'accept', content: { level: 3, note: 'hi' } } });
  });

  it('counts an answer with no action as cancel', async () => {
    const done = await call('close_ticket', { id: 'T-1' }, { inputResponses: { 'elicitation-1': { content: { confirm: true } } } });
    expect(done.result.structuredContent).toEqual({ closed: false, reason: 'The user chose cancel' });
  });

  describe.each(['sealed', 'signed'] as const)(
    'a %s requestState that does not hold is refused with -32602, never run as a new call (which would ask again)',
    (form) => {
      const call = (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}, options = auth('nour')) =>
        callOn(handlers[form], name, args, extra, options);
      const retryWith = async (mutate: (state: string) => string, args = { id: 'T-2' }, options = auth('nour')) => {
        warnings.length = 0;
        const first = await call('reassign_ticket', { id: 'T-2' });
        const second = await call(
          'reassign_ticket',
          { id: 'T-2' },
          { inputResponses: accept({ team: 'billing' }), requestState: first.result.requestState },
        );
        expect(second.result.inputRequests['elicitation-2']).toBeDefined();
        const answer = { 'elicitation-2': { action: 'accept', content: { agent: 'Priya' } } };
        return call('reassign_ticket', args, { inputResponses: answer, requestState: mutate(second.result.requestState) }, options);
      };
      const expectRefused = (result: any, reason: RegExp) => {
        expect(result.result).toBeUndefined();
        expect(result.error).toMatchObject({
          code: -32602,
          message: expect.stringContaining('requestState does not hold for this request'),
        });
        // The client learns that it does not hold; the log says which part did not.
        expect(warnings.join('\n')).toMatch(reason);
      };

      it('accepts the untouched state (the control case)', async () => {
        const done = await retryWith((s) => s);
        expect(done.result.structuredContent).toEqual({ reassigned: true, id: 'T-2', team: 'billing', agent: 'Priya' });
      });
      it('a flipped byte', async () => {
        // In the signed payload's JSON; in the sealed form, in the ciphertext (past `s1.<key id>.<iv>.`).
        const at = form === 'signed' ? 10 : 3 + 9 + 17 + 10;
        const flip = (s: string) => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
        expectRefused(await retryWith(flip), form === 'signed' ? /bad signature/ : /altered: its seal does not open/);
      });
      it('the conformance suite\'s tampering, "-TAMPERED" appended: refused with -32602', async () => {
        const refused = await retryWith((s) => `${s}-TAMPERED`);
        expect(refused.error).toMatchObject({ code: -32602, message: expect.stringContaining('requestState is malformed') });
      });
      it('another caller', async () => expectRefused(await retryWith((s) => s, undefined, auth('sam')), /another caller/));
      it('other arguments', async () => expectRefused(await retryWith((s) => s, { id: 'T-3' }), /other arguments/));
      it('an oversize state', async () => expectRefused(await retryWith((s) => s + 'A'.repeat(70_000)), /larger than/));
      it('an expired state', async () => {
        vi.useFakeTimers({ toFake: ['Date'] });
        try {
          const first = await call('close_ticket', { id: 'T-1' });
          vi.setSystemTime(Date.now() + 16 * 60_000);
          warnings.length = 0;
          const late = await call(
            'close_ticket',
            { id: 'T-1' },
            { inputResponses: accept({ confirm: true }), requestState: first.result.requestState },
          );
          expectRefused(late, /expired/);
        } finally {
          vi.useRealTimers();
        }
      });
      it('a state from another server secret', async () => {
        const other = createFetchHandler({ ...config, logger, elicitation: { ...config.elicitation, requestState: form } });
        const first = (await read(await other(mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' } }), auth('nour'))))
          .body;
        warnings.length = 0;
        const done = await call(
          'close_ticket',
          { id: 'T-1' },
          { inputResponses: accept({ confirm: true }), requestState: first.result.requestState },
        );
        expectRefused(done, /issued under key id [A-Za-z0-9_-]{8}, which this instance does not list/);
        expect(warnings.join('\n')).toMatch(/VAULT_SECRET/);
      });
    },
  );

  it('asks a client without the elicitation capability through the fallback, not with -32021', async () => {
    const request = mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' }, _meta: meta({}) });
    const { status, body } = await read(await handler(request));
    expect(status).toBe(200);
    expect(body.result.resultType).toBe('complete');
    expect(body.result._meta.elicitationPending.elicitId).toMatch(/^s1\./);
  });

  it('serves a request with no version as 2026-07-28, failing elicit() with ELICITATION_NOT_SUPPORTED', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'close_ticket', arguments: { id: 'T-1' } },
    });
    const response = await handler(
      new Request('https://desk.example.com/', { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
    );
    const { result } = await response.json();
    expect(result).toMatchObject({ isError: true, _meta: { code: 'ELICITATION_NOT_SUPPORTED' } });
  });

  it('sends URL mode with url and elicitationId, made up when left out', async () => {
    const urlCaps = { _meta: meta({ elicitation: { url: {} } }) };
    const billing = await call('connect_billing', {}, urlCaps);
    expect(billing.result.inputRequests['elicitation-1'].params).toMatchObject({
      mode: 'url',
      url: 'https://billing.example/connect?state=abc123',
      elicitationId: 'billing-abc123',
    });
    const payroll = await call('connect_payroll', {}, urlCaps);
    expect(payroll.result.inputRequests['elicitation-1'].params.elicitationId).toMatch(/^elicit-[0-9a-f-]{36}$/);
    const done = await call('connect_billing', {}, { ...urlCaps, inputResponses: { 'elicitation-1': { action: 'accept' } } });
    expect(done.result.structuredContent).toEqual({ connected: true });
    const formOnly = await call('connect_billing', {}, { _meta: meta({ elicitation: { form: {} } }) });
    expect(formOnly.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } });
  });

  it('fails with ELICITATION_DISABLED while elicitation is off, with the shorter text in production', async () => {
    const off = createFetchHandler({ ...config, elicitation: { enabled: false } });
    const dev = (await read(await off(mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' } })))).body;
    expect(dev.result).toMatchObject({ isError: true, _meta: { code: 'ELICITATION_DISABLED' } });
    expect(dev.result.content[0].text).toContain('Elicitation is disabled in server configuration');
    vi.stubEnv('NODE_ENV', 'production');
    try {
      const prodHandler = createFetchHandler({ ...config, elicitation: { enabled: false } });
      const prod = (await read(await prodHandler(mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' } })))).body;
      expect(prod.result.content[0].text).toBe('Elicitation is disabled on this server.');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('hides an unexpected error behind an error id', async () => {
    @Tool({ name: 'explode', inputSchema: {} })
    class Explode extends ToolContext {
      execute(): never {
        throw new Error('database password is hunter2');
      }
    }
    @App({ id: 'boom', tools: [Explode] })
    class Boom {}
    const errors: unknown[] = [];
    const h = createFetchHandler({ ...config, apps: [Boom], logger: { ...logger, error: (m: string) => errors.push(m) } });
    const { body } = await read(await h(mcpRequest('tools/call', { name: 'explode', arguments: {} })));
    expect(body.result.isError).toBe(true);
    expect(JSON.stringify(body)).not.toContain('hunter2');
    expect(body.result.content[0].text).toMatch(/error id: [0-9a-f-]{36}/);
    expect(String(errors[0])).toContain(body.result._meta.errorId);
  });
});
