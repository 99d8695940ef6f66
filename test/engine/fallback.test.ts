import { describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { callTool, findCall } from '../../src/engine/call-tool';
import { buildServer } from '../../src/app/build-server';
import { createNotifier, type AuthInfo } from '../../src/model';
import { legacyDesk } from '../fixtures/legacy-desk';
import { mcpRequest, meta, read } from '../helpers/requests';

const server = await buildServer(legacyDesk());
/** A tools/call through the fallback route, as an older client that declared no elicitation makes it. */
const callToolWithFallback = (name: string, args: Record<string, unknown>, caller: { auth: AuthInfo; sessionId?: string }) => {
  const scope = {
    auth: caller.auth,
    signal: new AbortController().signal,
    capabilities: {},
    notifier: createNotifier(undefined, undefined, server.logger),
    changes: server.changes,
  };
  return callTool(server, findCall(server, { name, arguments: args }), scope, { via: 'fallback', sessionId: caller.sessionId });
};
const nour = { auth: { user: { sub: 'nour' } } };
const sam = { auth: { user: { sub: 'sam' } } };
type Pending = { elicitId: string; message: string; schema: { required?: string[] } };
const pendingOf = (result: { _meta?: Record<string, unknown> }) => result._meta?.elicitationPending as Pending;

describe('the sendElicitationResult fallback, called in process', () => {
  it('returns the question as a pending result, and the answer re-runs the tool as its owner', async () => {
    const asked = await callToolWithFallback('close_owned', { id: 'T-1' }, nour);
    const pending = pendingOf(asked);
    expect(pending).toMatchObject({
      elicitId: expect.stringMatching(/^elicit-/),
      message: 'Close ticket T-1?',
      schema: { required: ['confirm'] },
    });
    expect(asked.structuredContent).toEqual({ elicitationPending: pending });
    expect(JSON.stringify(asked.content)).toContain('sendElicitationResult');
    // Only the session that was asked may answer (the Inspector's --cli connects anew for each run, and cannot).
    expect(JSON.stringify(asked.content)).toContain('call sendElicitationResult in this same session');
    const answer = { elicitId: pending.elicitId, action: 'accept', content: { confirm: true } };
    await expect(callToolWithFallback('sendElicitationResult', answer, sam)).rejects.toThrow(
      `Elicitation "${pending.elicitId}" was not requested by this caller`,
    );
    await expect(callToolWithFallback('sendElicitationResult', answer, sam)).rejects.toMatchObject({ code: -32003 });
    const done = await callToolWithFallback('sendElicitationResult', answer, nour);
    expect(done.structuredContent).toEqual({ closed: true, by: 'nour' });
    const again = await callToolWithFallback('sendElicitationResult', answer, nour);
    expect(again.isError).toBe(true);
    expect(JSON.stringify(again.content)).toContain(`No pending elicitation found for ID: ${pending.elicitId}`);
  });

  it('fails an unknown id with the documented text', async () => {
    const result = await callToolWithFallback(
      'sendElicitationResult',
      { elicitId: 'elicit-123', action: 'accept', content: { confirm: true } },
      nour,
    );
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'No pending elicitation found for ID: elicit-123' }]);
  });

  it('finishes a tool that asks twice', async () => {
    const first = pendingOf(await callToolWithFallback('reassign_ticket', { id: 'T-2' }, nour));
    expect(first.message).toBe('Which team should take T-2?');
    const second = pendingOf(
      await callToolWithFallback(
        'sendElicitationResult',
        { elicitId: first.elicitId, action: 'accept', content: { team: 'billing' } },
        nour,
      ),
    );
    expect(second.message).toBe('Which billing agent?');
    expect(second.elicitId).not.toBe(first.elicitId);
    const done = await callToolWithFallback(
      'sendElicitationResult',
      { elicitId: second.elicitId, action: 'accept', content: { agent: 'Priya' } },
      nour,
    );
    expect(done.structuredContent).toEqual({ reassigned: true, id: 'T-2', team: 'billing', agent: 'Priya' });
  });

  it('checks the answer against the schema, and passes decline through', async () => {
    const asked = pendingOf(await callToolWithFallback('escalate_ticket', { id: 'T-3' }, nour));
    const bad = await callToolWithFallback(
      'sendElicitationResult',
      { elicitId: asked.elicitId, action: 'accept', content: { team: 'sales', reason: 'now' } },
      nour,
    );
    expect(bad).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
    const again = pendingOf(await callToolWithFallback('escalate_ticket', { id: 'T-3' }, nour));
    const declined = await callToolWithFallback('sendElicitationResult', { elicitId: again.elicitId, action: 'decline' }, nour);
    expect(declined.structuredContent).toEqual({ escalated: false });
  });

  it('refuses to ask an anonymous caller without a session, and ties a question to the session that was asked', async () => {
    const anonymous = await callToolWithFallback('close_ticket', { id: 'T-1' }, { auth: { user: { sub: 'anonymous' }, anonymous: true } });
    expect(anonymous).toMatchObject({ isError: true, _meta: { code: 'ELICITATION_NOT_SUPPORTED' } });
    const viaSession = { auth: { user: { sub: 'anonymous' }, anonymous: true }, sessionId: 'session-a-0123456789' };
    const asked = pendingOf(await callToolWithFallback('close_ticket', { id: 'T-1' }, viaSession));
    const answer = { elicitId: asked.elicitId, action: 'accept', content: { confirm: true } };
    await expect(
      callToolWithFallback('sendElicitationResult', answer, { ...viaSession, sessionId: 'session-b-0123456789' }),
    ).rejects.toMatchObject({ code: -32003 });
    const done = await callToolWithFallback('sendElicitationResult', answer, viaSession);
    expect(done.structuredContent).toEqual({ closed: true, id: 'T-1', note: '' });
  });

  it('refuses bad arguments as a tool error', async () => {
    for (const args of [{}, { elicitId: 'x', action: 'maybe' }, { elicitId: 'x', action: 'accept', content: 'yes' }]) {
      const result = await callToolWithFallback('sendElicitationResult', args, nour);
      expect(result).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
    }
  });
});

describe('the fallback on the 2026-07-28 endpoint', () => {
  const handler = createFetchHandler(legacyDesk());
  it('is not listed, but answers when called', async () => {
    const list = await read(await handler(mcpRequest('tools/list')));
    expect(list.body.result.tools.map((t: { name: string }) => t.name)).not.toContain('sendElicitationResult');
    const call = await read(
      await handler(
        mcpRequest('tools/call', {
          name: 'sendElicitationResult',
          arguments: { elicitId: 'elicit-123', action: 'accept', content: { confirm: true } },
        }),
      ),
    );
    expect(call.body.result.isError).toBe(true);
    expect(call.body.result.content[0].text).toBe('No pending elicitation found for ID: elicit-123');
  });

  it('advertises a oneOf of the output schema and the pending result', async () => {
    const list = await read(await handler(mcpRequest('tools/list')));
    const tool = list.body.result.tools.find((t: { name: string }) => t.name === 'close_owned');
    expect(tool.outputSchema.oneOf).toHaveLength(2);
    expect(tool.outputSchema.oneOf[1]).toMatchObject({ required: ['elicitationPending'] });
  });
});

describe('the fallback on 2026-07-28, for a client that declares no elicitation', () => {
  const handler = createFetchHandler(legacyDesk());
  const call = async (name: string, args: Record<string, unknown>, capabilities: Record<string, unknown> = {}, extra = {}) =>
    (await read(await handler(mcpRequest('tools/call', { name, arguments: args, _meta: meta(capabilities), ...extra })))).body;
  const answer = (elicitId: string, content: Record<string, unknown>) =>
    call('sendElicitationResult', { elicitId, action: 'accept', content });

  it('refuses a round requestState offered as an elicitId, and an elicitId offered as a requestState', async () => {
    const round = await call('close_ticket', { id: 'T-1' }, { elicitation: {} });
    expect(round.result.resultType).toBe('input_required');
    const offered = await answer(round.result.requestState, { confirm: true });
    expect(offered.result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('No pending elicitation found') }] });

    const { elicitId } = (await call('close_ticket', { id: 'T-1' })).result._meta.elicitationPending;
    const retried = await call(
      'close_ticket',
      { id: 'T-1' },
      { elicitation: {} },
      {
        requestState: elicitId,
        inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } },
      },
    );
    // Not a state of this request: refused, nothing is closed.
    expect(retried.result).toBeUndefined();
    expect(retried.error.code).toBe(-32602);
  });

  it('answers for the call it was issued for; a URL-mode question still gets -32021, naming elicitation.url', async () => {
    const first = (await call('close_ticket', { id: 'T-1' })).result._meta.elicitationPending.elicitId;
    const second = (await call('close_ticket', { id: 'T-2' })).result._meta.elicitationPending.elicitId;
    expect((await answer(second, { confirm: true })).result.structuredContent).toMatchObject({ closed: true, id: 'T-2' });
    expect((await answer(first, { confirm: true })).result.structuredContent).toMatchObject({ closed: true, id: 'T-1' });
    const url = await call('connect_billing', {});
    expect(url.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } });
  });
});
