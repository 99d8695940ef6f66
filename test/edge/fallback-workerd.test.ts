// The fallback on 2026-07-28 in workerd: the help-desk Worker (stateless, no store) serves the OpenAI Agents SDK,
// which declares no elicitation; a scripted "model" answers through sendElicitationResult, as the result says.
import { MCPServerStreamableHttp } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { bearer } from '../helpers/bearer';
import { type RunningWorker, startWorker } from '../helpers/workerd';

const AUTH_SECRET = 'fallback-in-workerd-auth-secret-0123';
let worker: RunningWorker;
let signed: RunningWorker;
let mcp: MCPServerStreamableHttp;
const open: MCPServerStreamableHttp[] = [];
beforeAll(async () => {
  worker = startWorker((await bundleWorker('examples/cloudflare/worker.ts')).code, { VAULT_SECRET: 'fallback-in-workerd-secret' });
  signed = startWorker((await bundleWorker('test/edge/entries/signed-desk-worker.ts')).code, { AUTH_SECRET });
  mcp = new MCPServerStreamableHttp({ url: new URL('/mcp', await worker.mf.ready).href, name: 'help-desk' });
  await mcp.connect();
});
afterAll(async () => {
  await Promise.all([mcp, ...open].map((m) => m?.close()));
  await Promise.all([worker?.dispose(), signed?.dispose()]);
});

async function signedIn(sub: string): Promise<MCPServerStreamableHttp> {
  const requestInit = { headers: { authorization: await bearer(sub, AUTH_SECRET) } };
  const client = new MCPServerStreamableHttp({ url: new URL('/mcp', await signed.mf.ready).href, name: 'help-desk', requestInit });
  await client.connect();
  open.push(client);
  return client;
}

const textOf = (content: unknown) => (content as { text?: string }[]).map((c) => c.text ?? '').join('\n');
const elicitIdIn = (text: string) => JSON.parse(/call sendElicitationResult with elicitId ("(?:[^"\\]|\\.)*")/.exec(text)![1]!) as string;

describe('the fallback in workerd, for a client that declares no elicitation', () => {
  it('lists sendElicitationResult and closes a ticket the person accepts, with no store', async () => {
    expect((await mcp.listTools()).map((t) => t.name)).toContain('sendElicitationResult');
    const pending = textOf(await mcp.callTool('close_ticket', { id: 'T-1' }));
    expect(pending).toContain('Ask the user: "Close ticket T-1? The customer will be notified."');
    const done = await mcp.callTool('sendElicitationResult', {
      elicitId: elicitIdIn(pending),
      action: 'accept',
      content: { confirm: true },
    });
    expect(JSON.parse(textOf(done))).toEqual({ closed: true, id: 'T-1', note: '' });
  });

  it('asks two questions in turn', async () => {
    const first = textOf(await mcp.callTool('reassign_ticket', { id: 'T-2' }));
    const second = textOf(
      await mcp.callTool('sendElicitationResult', { elicitId: elicitIdIn(first), action: 'accept', content: { team: 'billing' } }),
    );
    expect(second).toContain('Which billing agent?');
    const done = await mcp.callTool('sendElicitationResult', {
      elicitId: elicitIdIn(second),
      action: 'accept',
      content: { agent: 'Priya' },
    });
    expect(JSON.parse(textOf(done))).toEqual({ reassigned: true, id: 'T-2', team: 'billing', agent: 'Priya' });
  });

  it('binds the elicitId to the signed-in caller: another is refused, the owner completes', async () => {
    const [nour, sam] = [await signedIn('nour'), await signedIn('sam')];
    const elicitId = elicitIdIn(textOf(await nour.callTool('close_ticket', { id: 'T-3' })));
    const answer = { elicitId, action: 'accept', content: { confirm: true } };
    const refused = await sam.callToolResult('sendElicitationResult', answer);
    expect(refused.isError).toBe(true);
    expect(JSON.parse(textOf(await nour.callTool('sendElicitationResult', answer)))).toEqual({ closed: true, id: 'T-3', note: '' });
  });
});
