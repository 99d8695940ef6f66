// A requestState sealed by Node (node:crypto's AES-GCM) opens inside workerd (WebCrypto's), and the other way round,
// under the same VAULT_SECRET list; rotation holds across the two runtimes as well.
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import 'parley-mcp/node'; // the Node side seals with node:crypto, as a Node deployment does
import { config } from '../../examples/help-desk/server';
import { keyIdOf } from '../../src/crypto';
import { bundleWorker } from '../helpers/bundle';
import { mcpRequest, read } from '../helpers/requests';

const OLD = 'old-vault-secret-for-workerd';
const NEW = 'new-vault-secret-for-workerd';

let code: string;
const workers: Miniflare[] = [];
beforeAll(async () => {
  code = (await bundleWorker('examples/cloudflare/worker.ts')).code;
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.dispose()));
});

const inWorkerd = (secrets: string) => {
  const mf = new Miniflare({
    modules: true,
    script: code,
    compatibilityDate: '2026-04-01',
    bindings: { VAULT_SECRET: secrets },
    cf: false,
  });
  workers.push(mf);
  return async (request: Request) => {
    const response = await mf.dispatchFetch(request.url, {
      method: 'POST',
      headers: Object.fromEntries(request.headers),
      body: await request.text(),
    });
    return (await response.json()) as any;
  };
};
const onNode = (secrets: string) => {
  const handler = createFetchHandler(config);
  return async (request: Request) => (await read(await handler(request, { env: { VAULT_SECRET: secrets } }))).body;
};

const reassign = (extra: Record<string, unknown> = {}) =>
  mcpRequest('tools/call', { name: 'reassign_ticket', arguments: { id: 'T-4' }, ...extra });
const team = { 'elicitation-1': { action: 'accept', content: { team: 'engineering' } } };
const agent = { 'elicitation-2': { action: 'accept', content: { agent: 'Lee' } } };

describe('sealed requestState between Node and workerd', () => {
  it('Node seals, workerd opens and seals the next round, Node finishes', async () => {
    const [node, worker] = [onNode(OLD), inWorkerd(OLD)];
    const first = await node(reassign());
    expect(first.result.requestState).toMatch(/^s1\./);
    const second = await worker(reassign({ inputResponses: team, requestState: first.result.requestState }));
    expect(Object.keys(second.result.inputRequests)).toEqual(['elicitation-2']);
    expect(second.result.requestState).toMatch(/^s1\./);
    const done = await node(reassign({ inputResponses: agent, requestState: second.result.requestState }));
    expect(done.result.structuredContent).toEqual({ reassigned: true, id: 'T-4', team: 'engineering', agent: 'Lee' });
  });

  it('rotates across runtimes: Node on [old], workerd on [new, old], Node on [new]', async () => {
    const [before, during, after] = [onNode(OLD), inWorkerd(`${NEW},${OLD}`), onNode(NEW)];
    const first = await before(reassign());
    const second = await during(reassign({ inputResponses: team, requestState: first.result.requestState }));
    expect(second.result.requestState).toContain(`.${await keyIdOf(NEW)}.`);
    const done = await after(reassign({ inputResponses: agent, requestState: second.result.requestState }));
    expect(done.result.structuredContent).toMatchObject({ reassigned: true, agent: 'Lee' });
    // What [old] sealed no longer opens on [new]: refused, not run as a new call.
    const stale = await after(reassign({ inputResponses: team, requestState: first.result.requestState }));
    expect(stale.error).toMatchObject({ code: -32602 });
  });

  it('refuses in workerd, with -32602, what the conformance suite tampers with', async () => {
    const [node, worker] = [onNode(OLD), inWorkerd(OLD)];
    const first = await node(reassign());
    const refused = await worker(reassign({ inputResponses: team, requestState: `${first.result.requestState}-TAMPERED` }));
    expect(refused.error).toMatchObject({ code: -32602 });
  });
});
