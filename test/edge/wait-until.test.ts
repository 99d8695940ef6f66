// A Worker's ctx.waitUntil gets the work of an older client's call that outlives its response (the tool still waits
// for an answer after the SSE response went out), so workerd keeps it alive if the client leaves.
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src';
import { config } from '../../examples/help-desk/server';
import { rawPost } from '../helpers/requests';

describe('ctx.waitUntil', () => {
  it("is handed an older client's running call, which settles once the answer arrived", async () => {
    const handler = createFetchHandler(config);
    const kept: Promise<unknown>[] = [];
    const ctx = { waitUntil: (work: Promise<unknown>) => void kept.push(work) };
    const send = (body: unknown, headers: Record<string, string> = {}) =>
      handler.fetch(rawPost(JSON.stringify(body), { accept: 'application/json, text/event-stream', ...headers }), {}, ctx);
    const init = await send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } },
    });
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    const call = await send(
      { jsonrpc: '2.0', id: 'c', method: 'tools/call', params: { name: 'close_ticket', arguments: { id: 'T-2' } } },
      session,
    );
    expect(kept).toHaveLength(1);
    const reader = call.body!.getReader();
    let text = '';
    while (!text.includes('elicitation/create')) text += new TextDecoder().decode((await reader.read()).value);
    const questionId = /"id":"([^"]+)","method":"elicitation\/create"/.exec(text)![1];
    let settled = false;
    void kept[0]!.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false); // the tool still waits
    await send({ jsonrpc: '2.0', id: questionId, result: { action: 'accept', content: { confirm: true } } }, session);
    await kept[0];
    expect(settled).toBe(true);
  });
});
