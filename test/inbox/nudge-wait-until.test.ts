// A nudge a call sends goes on after the call's response under the platform's waitUntil (a Worker's ctx), which
// Cloudflare cancels work past the response without. A receiver on loopback holds its answer until the test lets it go:
// the call has answered by then, and only a nudge handed to waitUntil is still running.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { App, createFetchHandler, Tool, ToolContext, z } from '../../src';
import { rawPost } from '../helpers/requests';

@Tool({ name: 'approve', inputSchema: { what: z.string() } })
class Approve extends ToolContext {
  async execute({ what }: { what: string }) {
    const answer = await this.elicit(`Approve ${what}?`, z.object({ ok: z.boolean() }), {
      ttl: 50,
      persist: { key: `approve-${what}` },
    });
    return answer.status;
  }
}

@App({ id: 'approvals', tools: [Approve] })
class Approvals {}

/** A webhook receiver that answers no POST until `release()`. */
async function heldReceiver() {
  const bodies: string[] = [];
  const held: Array<() => void> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      bodies.push(body);
      held.push(() => res.writeHead(204).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    bodies,
    release: () => held.splice(0).forEach((answer) => answer()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

describe("a call's nudge under ctx.waitUntil", () => {
  it('is handed to waitUntil, and settles only once the receiver answered, after the call', async () => {
    const hook = await heldReceiver();
    cleanups.push(hook.close);
    const handler = createFetchHandler({
      info: { name: 'nudge-wait-until', version: '1.0.0' },
      apps: [Approvals],
      elicitation: {
        enabled: true,
        persistent: { storage: { type: 'memory' }, notify: { url: hook.url, secret: 'whsec-nudge-wait-until-0123456789' } },
      },
    });
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
      { jsonrpc: '2.0', id: 'c', method: 'tools/call', params: { name: 'approve', arguments: { what: 'refund' } } },
      session,
    );
    await call.text(); // the call's whole answer: its question went unanswered within its ttl and stays in the inbox
    for (let i = 0; i < 200 && hook.bodies.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(JSON.parse(hook.bodies[0]!)).toMatchObject({ type: 'question.filed', message: 'Approve refund?' });

    const settled = kept.map(() => false);
    kept.forEach((work, i) => void work.then(() => (settled[i] = true)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The nudge is still waiting for the receiver: without waitUntil, a Worker would cancel it here.
    expect(settled.filter((done) => !done)).toHaveLength(1);
    hook.release();
    await Promise.all(kept);
    expect(settled.every(Boolean)).toBe(true);
  });
});
