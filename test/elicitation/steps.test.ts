// this.step() in 2026-07-28 rounds: a step before two questions runs once over the three requests, its result sealed in
// requestState; a replayed state returns the recorded result, an altered one never reaches the tool; names and sizes.
import { describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, createFetchHandler, z } from 'parley-mcp';
import { McpClient } from 'parley-mcp/client';
import { config } from '../../examples/help-desk/server';
import { mcpRequest, read } from '../helpers/requests';

const ran = { open: 0, flaky: 0 };
const flaky = { fail: true };

@Tool({ name: 'open_then_ask', description: 'Opens a ticket in a step, then asks twice', inputSchema: { title: z.string() } })
class OpenThenAsk extends ToolContext {
  async execute({ title }: { title: string }) {
    const ticket = await this.step('open-ticket', () => ({ id: `T-${++ran.open}`, title, at: new Date(0) }));
    const team = await this.elicit(`Team for ${ticket.id}?`, z.object({ team: z.string() }));
    const agent = await this.elicit(`Agent for ${ticket.id}?`, z.object({ agent: z.string() }));
    return { ticket, team: team.content?.team, agent: agent.content?.agent };
  }
}

@Tool({ name: 'flaky_step', description: 'A step that throws the first time, caught, then a question', inputSchema: {} })
class FlakyStep extends ToolContext {
  async execute() {
    let got = 'none';
    try {
      got = await this.step('flaky', () => {
        ran.flaky++;
        if (flaky.fail) throw new Error('not yet');
        return 'done';
      });
    } catch {}
    await this.elicit('Go on?', z.object({ go: z.boolean() }));
    return { got, runs: ran.flaky };
  }
}

@Tool({ name: 'step_twice', description: 'One step name twice', inputSchema: {} })
class StepTwice extends ToolContext {
  async execute() {
    await this.step('same', () => 1);
    await this.step('same', () => 2);
    return {};
  }
}

@Tool({ name: 'big_step', description: 'A step whose result outgrows requestState', inputSchema: {} })
class BigStep extends ToolContext {
  async execute() {
    await this.step('big', () => 'x'.repeat(60_000));
    await this.elicit('Go on?', z.object({ go: z.boolean() }));
    return {};
  }
}

@Tool({ name: 'no_step', description: 'Asks once, takes no step', inputSchema: {} })
class NoStep extends ToolContext {
  async execute() {
    return { go: (await this.elicit('Go on?', z.object({ go: z.boolean() }))).content?.go };
  }
}

@App({ id: 'steps', tools: [OpenThenAsk, FlakyStep, StepTwice, BigStep, NoStep] })
class Steps {}

const warnings: string[] = [];
const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
const apps = [...config.apps!, Steps];
const handlers = {
  sealed: createFetchHandler({ ...config, apps, logger }),
  signed: createFetchHandler({ ...config, apps, logger, elicitation: { ...config.elicitation, requestState: 'signed' } }),
};
const nour = { auth: { user: { sub: 'nour', iss: 'https://idp.example' } } };
const team = { 'elicitation-1': { action: 'accept', content: { team: 'billing' } } };
const agent = { 'elicitation-2': { action: 'accept', content: { agent: 'Priya' } } };

describe.each(['sealed', 'signed'] as const)('this.step() in %s rounds', (form) => {
  const call = async (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    (await read(await handlers[form](mcpRequest('tools/call', { name, arguments: args, ...extra }), nour))).body;

  it('runs a step before two questions once over the three requests, and every request sees its recorded result', async () => {
    ran.open = 0;
    const first = await call('open_then_ask', { title: 'Printer' });
    expect(first.result.inputRequests['elicitation-1'].params.message).toBe('Team for T-1?');
    const second = await call('open_then_ask', { title: 'Printer' }, { inputResponses: team, requestState: first.result.requestState });
    expect(second.result.inputRequests['elicitation-2'].params.message).toBe('Agent for T-1?');
    const done = await call('open_then_ask', { title: 'Printer' }, { inputResponses: agent, requestState: second.result.requestState });
    // The Date became its JSON on the first run too: every run sees what a replay reads.
    expect(done.result.structuredContent).toEqual({
      ticket: { id: 'T-1', title: 'Printer', at: '1970-01-01T00:00:00.000Z' },
      team: 'billing',
      agent: 'Priya',
    });
    expect(ran.open).toBe(1);

    // The first state sent again (a client replaying it): the recorded ticket comes back, and the step stays done.
    const replayed = await call('open_then_ask', { title: 'Printer' }, { inputResponses: team, requestState: first.result.requestState });
    expect(replayed.result.inputRequests['elicitation-2'].params.message).toBe('Agent for T-1?');
    expect(ran.open).toBe(1);
  });

  it('never lets an altered state change a recorded result or run the step again: it is refused with -32602', async () => {
    ran.open = 0;
    const first = await call('open_then_ask', { title: 'Fax' });
    const state: string = first.result.requestState;
    // The signed form's payload is readable: the forger rewrites the recorded ticket. The sealed one cannot be read.
    const forged =
      form === 'signed' ? state.replace('"T-1"', '"T-9"') : `${state.slice(0, 40)}${state[40] === 'A' ? 'B' : 'A'}${state.slice(41)}`;
    if (form === 'signed') expect(state).toContain('"steps":[["open-ticket"');
    else expect(state).not.toContain('T-1');
    expect(forged).not.toBe(state);
    warnings.length = 0;
    const retried = await call('open_then_ask', { title: 'Fax' }, { inputResponses: team, requestState: forged });
    expect(warnings.join('\n')).toMatch(form === 'signed' ? /bad signature/ : /altered/);
    // Not T-9, and not T-2: the forged result never reached the tool, nor did the call start over to take the step again.
    expect(retried.result).toBeUndefined();
    expect(retried.error.code).toBe(-32602);
    expect(ran.open).toBe(1);
  });

  it('does not record a step that threw: the next run of the call runs it again', async () => {
    ran.flaky = 0;
    flaky.fail = true;
    const first = await call('flaky_step', {});
    flaky.fail = false;
    const yes = { 'elicitation-1': { action: 'accept', content: { go: true } } };
    const done = await call('flaky_step', {}, { inputResponses: yes, requestState: first.result.requestState });
    expect(done.result.structuredContent).toEqual({ got: 'done', runs: 2 });
  });

  it('refuses one step name twice in one run, naming it', async () => {
    const done = await call('step_twice', {});
    expect(done.result.isError).toBe(true);
    expect(done.result.content[0].text).toContain('Step "same" is used twice in one run');
  });

  it('refuses a step result larger than requestState carries, saying what to do', async () => {
    const done = await call('big_step', {});
    expect(done.result.isError).toBe(true);
    expect(done.result.content[0].text).toBe('Step "big": the steps\' results are too large for requestState (record an id)');
  });

  it('adds nothing to the state of a tool that takes no step', async () => {
    const first = await call('no_step', {});
    if (form === 'signed') expect(first.result.requestState).not.toContain('steps');
    const done = await call(
      'no_step',
      {},
      {
        inputResponses: { 'elicitation-1': { action: 'accept', content: { go: true } } },
        requestState: first.result.requestState,
      },
    );
    expect(done.result.structuredContent).toEqual({ go: true });
  });
});

describe('this.step() through parley-mcp/client', () => {
  it('runs the step once while the client answers both rounds', async () => {
    ran.open = 0;
    const handler = handlers.sealed;
    const client = new McpClient({
      url: 'http://127.0.0.1/mcp',
      fetch: async (request) => handler(request, nour),
    });
    client.onElicitation((params) => ({
      action: 'accept',
      content: params.message.startsWith('Team') ? { team: 'ops' } : { agent: 'Lin' },
    }));
    try {
      const result = await client.callTool({ name: 'open_then_ask', arguments: { title: 'Badge' } });
      expect(result.structuredContent).toMatchObject({ ticket: { id: 'T-1', title: 'Badge' }, team: 'ops', agent: 'Lin' });
      expect(ran.open).toBe(1);
    } finally {
      await client.close();
    }
  });
});
