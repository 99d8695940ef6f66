// Rotating VAULT_SECRET: a two-question round whose rounds reach instances holding [old], [new, old] and [new].
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { config } from '../../examples/help-desk/server';
import { keyIdOf } from '../../src/crypto';
import { mcpRequest, read } from '../helpers/requests';

const OLD = 'old-vault-secret-0123456789';
const NEW = 'new-vault-secret-9876543210';

/** An instance of the help desk with VAULT_SECRET set to `secrets`, its warnings collected. */
function instance(secrets: string, form: 'sealed' | 'signed') {
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
  const handler = createFetchHandler({ ...config, logger, elicitation: { ...config.elicitation, requestState: form } });
  const call = async (extra: Record<string, unknown> = {}) => {
    const request = mcpRequest('tools/call', { name: 'reassign_ticket', arguments: { id: 'T-7' }, ...extra });
    return (
      await read(await handler(request, { env: { VAULT_SECRET: secrets }, auth: { user: { sub: 'nour', iss: 'https://idp.example' } } }))
    ).body;
  };
  return { call, warnings };
}

const team = { 'elicitation-1': { action: 'accept', content: { team: 'billing' } } };
const agent = { 'elicitation-2': { action: 'accept', content: { agent: 'Priya' } } };

describe.each(['sealed', 'signed'] as const)('rotating VAULT_SECRET with %s requestStates', (form) => {
  it('[old] asks, [new, old] takes the first answer and asks again, [new] finishes: no round lost', async () => {
    const [a, b, c] = [instance(OLD, form), instance(`${NEW},${OLD}`, form), instance(NEW, form)];
    const first = await a.call();
    expect(first.result.inputRequests['elicitation-1']).toBeDefined();
    expect(first.result.requestState).toContain(`.${await keyIdOf(OLD)}.`);
    const second = await b.call({ inputResponses: team, requestState: first.result.requestState });
    expect(Object.keys(second.result.inputRequests)).toEqual(['elicitation-2']);
    expect(second.result.requestState).toContain(`.${await keyIdOf(NEW)}.`);
    const done = await c.call({ inputResponses: agent, requestState: second.result.requestState });
    expect(done.result.structuredContent).toEqual({ reassigned: true, id: 'T-7', team: 'billing', agent: 'Priya' });
    expect([...a.warnings, ...b.warnings, ...c.warnings].filter((w) => w.includes('requestState'))).toEqual([]);
  });

  it('[new] refuses a state that still names the retired key (-32602), and logs which key and why', async () => {
    const [a, c] = [instance(OLD, form), instance(NEW, form)];
    const first = await a.call();
    const second = await a.call({ inputResponses: team, requestState: first.result.requestState });
    expect(second.result.inputRequests['elicitation-2']).toBeDefined();
    const late = await c.call({ inputResponses: agent, requestState: second.result.requestState });
    // Refused, not run as a new call: the tool could have recorded steps, and the client decides whether to start over.
    expect(late.result).toBeUndefined();
    expect(late.error.code).toBe(-32602);
    const warning = c.warnings.join('\n');
    expect(warning).toContain(`issued under key id ${await keyIdOf(OLD)}, which this instance does not list`);
    expect(warning).toMatch(/keep the old secret listed after the new one/);
    expect(warning).not.toContain(OLD);
  });

  it('an instance still on [old] refuses what [new, old] issued, so a rollout lists the new key second first', async () => {
    const [a, b, early] = [instance(OLD, form), instance(`${NEW},${OLD}`, form), instance(`${OLD},${NEW}`, form)];
    const first = await b.call();
    const back = await a.call({ inputResponses: team, requestState: first.result.requestState });
    expect(back.error.code).toBe(-32602);
    expect(a.warnings.join('\n')).toContain(`issued under key id ${await keyIdOf(NEW)}`);
    // [old, new] still seals with old and already opens what new sealed.
    const opened = await early.call({ inputResponses: team, requestState: first.result.requestState });
    expect(Object.keys(opened.result.inputRequests)).toEqual(['elicitation-2']);
    expect(opened.result.requestState).toContain(`.${await keyIdOf(OLD)}.`);
  });
});
