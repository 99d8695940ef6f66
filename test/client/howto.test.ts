// A client's side of elicitation (docs/client.md), with Parley's client against the help desk: the six answers to "Delete ticket t3?", and the annotation gate.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import {
  callWithGate,
  McpClient,
  needsApproval,
  renderForm,
  type ClientOptions,
  type ElicitAnswer,
  type ElicitRequestParams,
} from 'parley-mcp/client';
import { config } from '../../examples/help-desk/server';
import { tickets } from '../../examples/help-desk/store';

const handler = createFetchHandler(config);
let client: McpClient;
const connectAt = (options: Partial<ClientOptions> = {}) =>
  (client = new McpClient({ url: 'http://localhost/mcp', fetch: (r) => handler(r), ...options }));
beforeEach(() => tickets.reset());
afterEach(() => client?.close());

const text = (result: { content: Array<{ text?: string }> }) => result.content.map((c) => c.text).join('\n');

describe.each(['2026-07-28', '2025-11-25'])('Ask before the delete, and read every other answer as no (%s)', (protocolVersion) => {
  const connect = (options: Partial<ClientOptions> = {}) => connectAt({ protocolVersion, ...options });

  it('renders the form the page shows from the request the server sends', async () => {
    let form: string[] = [];
    connect().onElicitation((params) => {
      form = renderForm(params);
      return { action: 'cancel' };
    });
    await client.callTool({ name: 'delete_ticket', arguments: { id: 't3' } });
    expect(form).toEqual([
      'Delete ticket t3, "BUY CHEAP WATCHES NOW"? This cannot be undone.',
      '  [boolean] Delete this ticket (required): A deleted ticket cannot be recovered.',
    ]);
  });

  const answers: [string, ElicitAnswer, string, string[]][] = [
    ['accepts with confirm: true', { action: 'accept', content: { confirm: true } }, 'deleted t3', ['t1', 't2']],
    [
      'accepts with confirm: false',
      { action: 'accept', content: { confirm: false } },
      'not deleted: the user answered no',
      ['t1', 't2', 't3'],
    ],
    ['declines', { action: 'decline' }, 'not deleted: the user declined', ['t1', 't2', 't3']],
    ['cancels', { action: 'cancel' }, 'not deleted: the user cancelled', ['t1', 't2', 't3']],
  ];
  for (const [name, answer, said, left] of answers) {
    it(`the client ${name}: ${said}`, async () => {
      connect().onElicitation(() => answer);
      const result = await client.callTool({ name: 'delete_ticket', arguments: { id: 't3' } });
      expect(result.isError).toBeUndefined();
      expect(text(result)).toBe(said);
      expect(tickets.ids()).toEqual(left);
    });
  }

  it('the client accepts with a string where a boolean was asked for: the answer never reaches the tool', async () => {
    connect().onElicitation(() => ({ action: 'accept', content: { confirm: 'yes' } }));
    const result = await client.callTool({ name: 'delete_ticket', arguments: { id: 't3' } });
    expect(result.isError).toBe(true);
    expect(result._meta?.code).toBe('INVALID_INPUT');
    expect(text(result)).toMatch(/does not match the requested schema: confirm: .*boolean/);
    expect(tickets.ids()).toEqual(['t1', 't2', 't3']);
  });

  it('a client without the elicitation capability is asked through the fallback before anything is deleted', async () => {
    let asked = false;
    connect({ elicitation: false }).onElicitation(() => ((asked = true), { action: 'accept', content: { confirm: true } }));
    const outcome = await client.callTool({ name: 'delete_ticket', arguments: { id: 't3' } }).catch((error: unknown) => error);
    // Such a client gets the sendElicitationResult fallback on every revision: the question comes back in the result.
    expect(outcome).toMatchObject({
      _meta: { elicitationPending: { message: 'Delete ticket t3, "BUY CHEAP WATCHES NOW"? This cannot be undone.' } },
    });
    expect(asked).toBe(false);
    expect(tickets.ids()).toEqual(['t1', 't2', 't3']);
  });
});

describe('Gate on annotations when the server will not ask', () => {
  const connect = connectAt;
  it('applies the spec defaults: silence is destructive, only a read-only claim runs unasked', async () => {
    const { tools } = await connect().listTools();
    const gate = Object.fromEntries(
      ['list_tickets', 'delete_ticket', 'purge_spam'].map((n) => [n, needsApproval(tools.find((t) => t.name === n))]),
    );
    expect(gate).toEqual({ list_tickets: false, delete_ticket: true, purge_spam: false });
    expect(needsApproval(undefined)).toBe(true);
    expect(needsApproval({ annotations: {} })).toBe(true);
    expect(needsApproval({ annotations: { destructiveHint: false } })).toBe(false);
    expect(needsApproval({ annotations: { readOnlyHint: true, destructiveHint: true } })).toBe(false);
  });

  it('asks about delete_ticket only, and believes purge_spam, which deletes t3', async () => {
    const elicited: ElicitRequestParams[] = [];
    connect().onElicitation((p) => (elicited.push(p), { action: 'accept', content: { confirm: true } }));
    const askedAbout: string[] = [];
    const ask = (name: string) => (askedAbout.push(name), false);

    const listed = await callWithGate(client, 'list_tickets', {}, ask);
    expect(listed.structuredContent.tickets).toHaveLength(3);
    const refused = await callWithGate(client, 'delete_ticket', { id: 't1' }, ask);
    expect(refused).toEqual({ refused: true, content: [], isError: false });
    expect(tickets.ids()).toEqual(['t1', 't2', 't3']);
    expect(elicited).toHaveLength(0); // refused by the gate: the call never reached the server

    const purged = await callWithGate(client, 'purge_spam', {}, ask);
    expect(text(purged)).toBe('purged t3');
    expect(askedAbout).toEqual(['delete_ticket']);
    expect(tickets.ids()).toEqual(['t1', 't2']);
  });

  it('a yes at the gate lets the call through, and the server still asks', async () => {
    connect().onElicitation(() => ({ action: 'accept', content: { confirm: true } }));
    const result = await callWithGate(client, 'delete_ticket', { id: 't2' }, () => true);
    expect(text(result)).toBe('deleted t2');
    expect(tickets.ids()).toEqual(['t1', 't3']);
  });
});
