import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { config } from '../../examples/help-desk/server';
import { mcpRequest, read } from '../helpers/requests';

// An edge isolate, marked the way the docs check it: the global an edge runtime defines.
const global = globalThis as { EdgeRuntime?: string };
beforeAll(() => void (global.EdgeRuntime = 'edge-runtime'));
afterAll(() => void delete global.EdgeRuntime);

const handler = createFetchHandler({ ...config, elicitation: { enabled: true, edge: 'stateless' } });

async function olderClient(capabilities: Record<string, unknown>) {
  const client = new Client({ name: 'older', version: '1.0.0' }, { capabilities });
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => handler(new Request(url, init)),
  });
  await client.connect(transport);
  return client;
}

describe("elicitation.edge: 'stateless' on an edge runtime", () => {
  it('serves a 2026-07-28 round in full, with no store', async () => {
    const call = (extra: Record<string, unknown> = {}) =>
      mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' }, ...extra });
    const first = (await read(await handler(call()))).body;
    expect(first.result.resultType).toBe('input_required');
    const done = (
      await read(
        await handler(
          call({
            inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } },
            requestState: first.result.requestState,
          }),
        ),
      )
    ).body;
    expect(done.result.structuredContent).toEqual({ closed: true, id: 'T-1', note: '' });
  });

  it("refuses an older client's question per call with a clear error, whether it can show forms or not", async () => {
    for (const capabilities of [{ elicitation: {} }, {}]) {
      const client = await olderClient(capabilities);
      const result = await client.callTool({ name: 'close_ticket', arguments: { id: 'T-1' } });
      expect(result.isError).toBe(true);
      expect((result._meta as { code?: string }).code).toBe('ELICITATION_NOT_SUPPORTED');
      expect(JSON.stringify(result.content)).toContain("elicitation.edge: 'stateless'");
      // What to do about it on a Worker: the store that runs there, and its variables.
      expect(JSON.stringify(result.content)).toMatch(/enableRedisHttp\(\).*UPSTASH_REDIS_REST_URL/);
      // Tools that ask nothing still work for the same client.
      const list = await client.callTool({ name: 'list_tickets', arguments: {} });
      expect(list.isError).toBeFalsy();
      await client.close();
    }
  });
});
