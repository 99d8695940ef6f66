// Skills inside workerd: the Worker bundles its skills with no node: import, hashes them with WebCrypto at startup and
// serves skills/list, skills/get, resources/read and resources/directory/read.
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { mcpRequest, read } from '../helpers/requests';
import { startWorker, type RunningWorker } from '../helpers/workerd';

let worker: RunningWorker | undefined;
afterAll(() => worker?.dispose());

describe('skills on Cloudflare Workers', () => {
  it('serves the skills bundled with the Worker, their digests those of the bytes it serves', { timeout: 60_000 }, async () => {
    const { code, nodeImports } = await bundleWorker('test/edge/entries/skills-worker.ts');
    expect(nodeImports).toEqual([]);
    worker = startWorker(code);
    const url = new URL('/mcp', await worker.mf.ready).href;
    const call = async (method: string, params: Record<string, unknown> = {}) =>
      (await read(await fetch(mcpRequest(method, params, { url })))).body;
    const discover = (await call('server/discover')).result;
    expect(discover.capabilities.extensions['io.modelcontextprotocol/skills']).toEqual({ directoryRead: true });
    const first = (await call('skills/list')).result;
    expect(first.nextCursor).toBe('1');
    const basic = first.skills[0];
    expect(basic.uri).toBe('skill://conformance-basic/SKILL.md');
    const skillMd = (await call('resources/read', { uri: basic.uri })).result.contents[0];
    expect(basic.resources[0]).toEqual({
      uri: basic.uri,
      digest: `sha256:${createHash('sha256').update(skillMd.text).digest('hex')}`,
      size: Buffer.byteLength(skillMd.text),
    });
    const pixel = (await call('resources/read', { uri: 'skill://conformance-basic/assets/pixel.png' })).result.contents[0];
    const bytes = Buffer.from(pixel.blob, 'base64');
    expect(basic.resources).toContainEqual({
      uri: 'skill://conformance-basic/assets/pixel.png',
      digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
      size: bytes.length,
    });
    expect((await call('skills/get', { uri: 'skill://acme/billing/refunds/SKILL.md' })).result.skill.frontmatter.name).toBe('refunds');
    const root = (await call('resources/directory/read', { uri: 'skill://conformance-basic' })).result;
    expect(root.resources).toHaveLength(1);
    expect((await call('resources/directory/read', { uri: 'skill://conformance-basic/../x' })).error.code).toBe(-32602);
  });
});
