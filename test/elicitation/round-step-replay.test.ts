// A 2026-07-28 round whose tool takes a step before two questions, against a real server over HTTP, sealed and signed:
// the step runs once over the three requests, and no replayed or tampered requestState makes it run again or changes
// what it recorded. A state sent again returns the recorded result; one with any character changed, another caller's
// or another request's is refused with -32602 (never run as a new call, which would take the step again).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { bearer } from '../helpers/bearer';
import { meta, MODERN } from '../helpers/requests';

const SECRET = 'round-step-replay-secret-0123456789';
/** The step's side effect: every charge it made, in order. */
const charges: string[] = [];

@Tool({ name: 'charge_then_ask', description: 'Charges in a step, then asks twice', inputSchema: { order: z.string() } })
class ChargeThenAsk extends ToolContext {
  async execute({ order }: { order: string }) {
    const charge = await this.step('charge', () => {
      charges.push(order);
      return { id: `C-${charges.length}`, order };
    });
    const team = await this.elicit(`Team for ${charge.id}?`, z.object({ team: z.string() }));
    const agent = await this.elicit(`Agent for ${charge.id}?`, z.object({ agent: z.string() }));
    return { charge, team: team.content?.team, agent: agent.content?.agent };
  }
}

@Tool({ name: 'ask_once', description: 'Asks once, takes no step', inputSchema: { order: z.string() } })
class AskOnce extends ToolContext {
  async execute() {
    return { team: (await this.elicit('Team?', z.object({ team: z.string() }))).content?.team };
  }
}

@App({ id: 'round-steps', tools: [ChargeThenAsk, AskOnce] })
class RoundSteps {}

const servers: Partial<Record<'sealed' | 'signed', RunningServer>> = {};
beforeAll(async () => {
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  for (const form of ['sealed', 'signed'] as const)
    servers[form] = await serve(
      {
        info: { name: 'round-steps', version: '1.0.0' },
        apps: [RoundSteps],
        auth: { secret: SECRET },
        elicitation: { enabled: true, requestState: form },
        logger: quiet,
      },
      { port: 0 },
    );
});
afterAll(() => Promise.all(Object.values(servers).map((s) => s.close())));

const team = { 'elicitation-1': { action: 'accept', content: { team: 'billing' } } };
const agent = { 'elicitation-2': { action: 'accept', content: { agent: 'Priya' } } };
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The state with the character at `at` replaced by another (a base64url one where it was base64url). */
const changedAt = (state: string, at: number) => {
  const pool = BASE64URL.includes(state[at]!) ? BASE64URL : '.{}":,ab';
  return state.slice(0, at) + pool[(pool.indexOf(state[at]!) + 1) % pool.length] + state.slice(at + 1);
};

describe.each(['sealed', 'signed'] as const)('a step in a %s round over HTTP', (form) => {
  let id = 0;
  async function call(sub: string, tool: string, params: Record<string, unknown>): Promise<any> {
    const response = await fetch(servers[form]!.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': tool,
        authorization: await bearer(sub, SECRET),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { _meta: meta(), name: tool, ...params } }),
    });
    return response.json();
  }
  const order = (extra: Record<string, unknown> = {}, sub = 'nour', tool = 'charge_then_ask', args = { order: 'O-1' }) =>
    call(sub, tool, { arguments: args, ...extra });
  const question = (body: any, key: string) => body.result?.inputRequests?.[key]?.params?.message;
  const refused = (body: any) => {
    expect(body.result, JSON.stringify(body.result)).toBeUndefined();
    expect(body.error.code).toBe(-32602);
  };

  it('runs the step once over the three requests; a replayed or tampered state never runs it again or changes it', async () => {
    charges.length = 0;
    const first = await order();
    expect(question(first, 'elicitation-1')).toBe('Team for C-1?');
    const state1: string = first.result.requestState;
    const second = await order({ inputResponses: team, requestState: state1 });
    expect(question(second, 'elicitation-2')).toBe('Agent for C-1?');
    const state2: string = second.result.requestState;
    const done = await order({ inputResponses: agent, requestState: state2 });
    const recorded = { charge: { id: 'C-1', order: 'O-1' }, team: 'billing', agent: 'Priya' };
    expect(done.result.structuredContent).toEqual(recorded);
    expect(charges).toEqual(['O-1']);

    // Each state sent again: the recorded charge comes back, and the step does not run.
    expect(question(await order({ requestState: state1 }), 'elicitation-1')).toBe('Team for C-1?');
    expect(question(await order({ inputResponses: team, requestState: state1 }), 'elicitation-2')).toBe('Agent for C-1?');
    expect((await order({ inputResponses: agent, requestState: state2 })).result.structuredContent).toEqual(recorded);
    expect(charges).toEqual(['O-1']);

    // Every one-character change of either state, anywhere in it (key id, IV, data, tag, signature, separators).
    for (const [state, answers] of [
      [state1, team],
      [state2, agent],
    ] as const)
      for (let at = 0; at < state.length; at++) {
        const changed = changedAt(state, at);
        expect(changed).not.toBe(state);
        refused(await order({ inputResponses: answers, requestState: changed }));
      }
    // Another caller's, and another request's: other arguments, another tool.
    refused(await order({ inputResponses: agent, requestState: state2 }, 'sam'));
    refused(await order({ inputResponses: agent, requestState: state2 }, 'nour', 'charge_then_ask', { order: 'O-2' }));
    refused(await order({ inputResponses: team, requestState: state1 }, 'nour', 'ask_once'));
    expect(charges).toEqual(['O-1']);

    // What nour's round recorded is still what every replay reads.
    expect((await order({ inputResponses: agent, requestState: state2 })).result.structuredContent).toEqual(recorded);
    expect(charges).toEqual(['O-1']);
  });
});
