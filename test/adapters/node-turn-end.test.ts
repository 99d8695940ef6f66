// parley-mcp/node ends each event-loop turn itself: suspended runs settle, then every answer of the turn is written at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, FrontMcp, Tool, ToolContext, createFetchHandler, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { mcpRequest, meta, read } from '../helpers/requests';

const ALL = { elicitation: {}, sampling: {}, roots: {} };

@Tool({ name: 'ask_three', inputSchema: { id: z.string() } })
class AskThree extends ToolContext {
  async execute({ id }: { id: string }) {
    // The second and third are asked a few microtasks later: they must still join the first one's round.
    const later = async <T>(ask: () => Promise<T>) => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
      return ask();
    };
    const [name] = await Promise.all([
      this.elicit(`Name for ${id}?`, { name: z.string() }),
      later(() => this.sample('Hi?')),
      later(() => this.listRoots()),
    ]);
    return `${id}: ${name.content?.name}`;
  }
}

@Tool({ name: 'echo', inputSchema: { text: z.string() } })
class Echo extends ToolContext {
  execute({ text }: { text: string }) {
    return text;
  }
}

@App({ id: 'turns', tools: [AskThree, Echo] })
class TurnsApp {}

@FrontMcp({ info: { name: 'turns', version: '1.0.0' }, apps: [TurnsApp], elicitation: { enabled: true }, logging: { level: 'error' } })
class Server {}

const body = (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: meta(ALL), name, arguments: args, ...extra } });
const headers = (name: string) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': name,
});

describe('the end of a turn under parley-mcp/node', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve(Server, { port: 0 });
  });
  afterAll(() => server.close());

  const post = async (name: string, args: Record<string, unknown>, extra?: Record<string, unknown>) =>
    (await read(await fetch(server.url, { method: 'POST', headers: headers(name), body: body(name, args, extra) }))).body.result;

  it('answers rounds and plain calls arriving together: each round holds its own three questions, each retry completes', async () => {
    const ids = Array.from({ length: 24 }, (_, i) => `R-${i}`);
    const [firsts, echoes] = await Promise.all([
      Promise.all(ids.map((id) => post('ask_three', { id }))),
      Promise.all(ids.map((id) => post('echo', { text: id }))),
    ]);
    expect(echoes.map((r) => r.content[0].text)).toEqual(ids);
    for (const [i, first] of firsts.entries()) {
      expect(Object.keys(first.inputRequests).sort()).toEqual(['elicitation-1', 'roots-1', 'sampling-1']);
      expect(first.inputRequests['elicitation-1'].params.message).toBe(`Name for ${ids[i]}?`);
    }
    const sampled = { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm' };
    const done = await Promise.all(
      firsts.map((first, i) =>
        post(
          'ask_three',
          { id: ids[i] },
          {
            requestState: first.requestState,
            inputResponses: {
              'elicitation-1': { action: 'accept', content: { name: `n${i}` } },
              'sampling-1': sampled,
              'roots-1': { roots: [] },
            },
          },
        ),
      ),
    );
    expect(done.map((r) => r.content[0].text)).toEqual(ids.map((id, i) => `${id}: n${i}`));
  });

  it('settles a round that starts in the same microtasks as the answer before it (no turn is lost)', async () => {
    const handler = createFetchHandler(Server);
    const ask = async (id: string) =>
      (await read(await handler(mcpRequest('tools/call', { name: 'ask_three', arguments: { id }, _meta: meta(ALL) })))).body.result;
    // Each round's first request is sent from the continuation of the previous one's answer, with no macrotask between.
    const seen: string[] = [];
    for (const id of ['A', 'B', 'C']) seen.push((await ask(id)).inputRequests['elicitation-1'].params.message);
    expect(seen).toEqual(['Name for A?', 'Name for B?', 'Name for C?']);
  });
});
