// The Skills extension on the wire, request by request: the declaration, pages, entries with the digests of the bytes
// served, directory reads, the older era, and hostile names, paths and cursors, each a -32602 or -32601, never a crash.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { defineSkills } from 'parley-mcp/skills';
import { mcpRequest, read } from '../helpers/requests';
import { legacyPost, openLegacySession, request } from '../helpers/legacy';

const skillMd = (name: string, extra = '') => `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\n\n# ${name}\n`;
const BYTES = new Uint8Array([0, 255, 1, 254]);

const files = {
  'handbook/SKILL.md': skillMd('handbook', 'license: MIT\n'),
  'handbook/templates/apology.md': 'Sorry about that.\r\n',
  'handbook/data.bin': BYTES,
  'handbook/__proto__': 'a file named like the prototype',
  'constructor/SKILL.md': skillMd('constructor'),
};

const handlerWith = (options?: Parameters<typeof defineSkills>[1], extra: Record<string, unknown> = {}) =>
  createFetchHandler({ info: { name: 'skills', version: '1.0.0' }, skills: defineSkills(files, options), ...extra });

const call = async (handler: ReturnType<typeof handlerWith>, method: string, params: Record<string, unknown> = {}) =>
  (await read(await handler(mcpRequest(method, params)))).body;

const sha = (bytes: Uint8Array | string) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

describe('skills on 2026-07-28', () => {
  const handler = handlerWith({ pageSize: 1 });

  it('declares the extension with directoryRead, and resources', async () => {
    const { result } = await call(handler, 'server/discover');
    expect(result.capabilities.extensions['io.modelcontextprotocol/skills']).toEqual({ directoryRead: true });
    expect(result.capabilities.resources).toBeDefined();
  });

  it('pages skills/list one skill at a time, each entry with the digests and sizes of the bytes served', async () => {
    const first = (await call(handler, 'skills/list')).result;
    expect(first).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public', nextCursor: '1' });
    expect(first.skills).toEqual([
      {
        uri: 'skill://handbook/SKILL.md',
        frontmatter: { name: 'handbook', description: 'The handbook skill.', license: 'MIT' },
        resources: [
          { uri: 'skill://handbook/SKILL.md', digest: sha(files['handbook/SKILL.md']), size: files['handbook/SKILL.md'].length },
          { uri: 'skill://handbook/templates/apology.md', digest: sha('Sorry about that.\r\n'), size: 19 },
          { uri: 'skill://handbook/data.bin', digest: sha(BYTES), size: 4 },
          { uri: 'skill://handbook/__proto__', digest: sha(files['handbook/__proto__']), size: 31 },
        ],
      },
    ]);
    const second = (await call(handler, 'skills/list', { cursor: '1' })).result;
    expect(second.skills.map((s: { uri: string }) => s.uri)).toEqual(['skill://constructor/SKILL.md']);
    expect(second.nextCursor).toBeUndefined();
  });

  it('serves text as written (CRLF kept) and bytes as a blob, with the cache hints', async () => {
    const text = (await call(handler, 'resources/read', { uri: 'skill://handbook/templates/apology.md' })).result;
    expect(text.contents).toEqual([
      { uri: 'skill://handbook/templates/apology.md', mimeType: 'text/markdown', text: 'Sorry about that.\r\n' },
    ]);
    expect(text).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    const blob = (await call(handler, 'resources/read', { uri: 'skill://handbook/data.bin' })).result;
    expect(blob.contents).toEqual([{ uri: 'skill://handbook/data.bin', mimeType: 'application/octet-stream', blob: 'AP8B/g==' }]);
    const proto = (await call(handler, 'resources/read', { uri: 'skill://handbook/__proto__' })).result;
    expect(proto.contents[0].text).toBe('a file named like the prototype');
  });

  it('lists every skill file in resources/list, SKILL.md under its frontmatter name and description', async () => {
    const { resources } = (await call(handler, 'resources/list')).result;
    expect(resources).toContainEqual({
      uri: 'skill://handbook/SKILL.md',
      name: 'handbook',
      description: 'The handbook skill.',
      mimeType: 'text/markdown',
      size: files['handbook/SKILL.md'].length,
    });
    expect(resources.map((r: { uri: string }) => r.uri)).toContain('skill://handbook/templates/apology.md');
  });

  it('gets a skill named constructor, and answers -32602 for a URI it does not serve', async () => {
    expect((await call(handler, 'skills/get', { uri: 'skill://constructor/SKILL.md' })).result.skill.frontmatter.name).toBe('constructor');
    for (const uri of [
      'skill://__proto__/SKILL.md',
      'skill://mcp-conformance-nonexistent-skill-9f3a2b/SKILL.md',
      'skill://handbook',
      'constructor',
    ])
      expect((await call(handler, 'skills/get', { uri })).error.code).toBe(-32602);
    expect((await call(handler, 'skills/get', { uri: 42 })).error.code).toBe(-32602);
    expect((await call(handler, 'skills/get')).error.code).toBe(-32602);
  });

  it('reads a folder a page at a time: files, then sub-folders as inode/directory', async () => {
    const first = (await call(handler, 'resources/directory/read', { uri: 'skill://handbook' })).result;
    expect(first.resources).toEqual([
      { uri: 'skill://handbook/SKILL.md', name: 'handbook', description: 'The handbook skill.', mimeType: 'text/markdown', size: 81 },
    ]);
    const second = (await call(handler, 'resources/directory/read', { uri: 'skill://handbook', cursor: first.nextCursor })).result;
    expect(second.resources).toEqual([{ uri: 'skill://handbook/templates', name: 'templates', mimeType: 'inode/directory' }]);
    const templates = (await call(handler, 'resources/directory/read', { uri: 'skill://handbook/templates' })).result;
    expect(templates.resources.map((r: { name: string }) => r.name)).toEqual(['templates/apology.md']);
  });

  it('refuses .. and other paths it does not serve, in reads and directory reads, with -32602', async () => {
    const hostile = [
      'skill://handbook/../handbook/SKILL.md',
      'skill://handbook/templates/../SKILL.md',
      'skill://handbook/./SKILL.md',
      'skill://handbook/SKILL.md/..',
      'skill://constructor/../../etc/passwd',
      'skill://handbook/%2e%2e/SKILL.md',
      'skill://__proto__',
      'skill://constructor/constructor',
    ];
    for (const uri of hostile) {
      expect((await call(handler, 'resources/read', { uri })).error.code, uri).toBe(-32602);
      expect((await call(handler, 'resources/directory/read', { uri })).error.code, uri).toBe(-32602);
    }
    for (const uri of ['skill://handbook/SKILL.md', 'skill://handbook/', 'handbook', 'file:///etc'])
      expect((await call(handler, 'resources/directory/read', { uri })).error.code, uri).toBe(-32602);
  });

  it('refuses a cursor it did not write, however long, with -32602', async () => {
    expect((await call(handler, 'skills/list', { cursor: '2' })).error.code).toBe(-32602);
    for (const cursor of ['0', '9', '-1', '1.0', ' 1', 'abc', '9'.repeat(200_000), '__proto__', 1, null, {}]) {
      const { error } = await call(handler, 'skills/list', { cursor });
      expect(error.code).toBe(-32602);
      expect(error.message).toContain('unknown cursor');
      expect((await call(handler, 'resources/directory/read', { uri: 'skill://handbook', cursor })).error.code).toBe(-32602);
    }
  });
});

describe('skills without directoryRead', () => {
  it('declares {} and answers resources/directory/read as an unknown method', async () => {
    const handler = handlerWith({ directoryRead: false });
    expect((await call(handler, 'server/discover')).result.capabilities.extensions['io.modelcontextprotocol/skills']).toEqual({});
    expect((await call(handler, 'resources/directory/read', { uri: 'skill://handbook' })).error.code).toBe(-32601);
  });
});

describe('a server without skills', () => {
  it('knows none of the three methods', async () => {
    const handler = createFetchHandler({ info: { name: 'plain', version: '1.0.0' } });
    for (const method of ['skills/list', 'skills/get', 'resources/directory/read'])
      expect((await call(handler as never, method, { uri: 'skill://x/SKILL.md' })).error.code).toBe(-32601);
    expect((await call(handler as never, 'server/discover')).result.capabilities.extensions).toBeUndefined();
  });
});

describe('skills on 2025-11-25', () => {
  it('declares the extension at initialize and serves the methods without the 2026-07-28 fields', async () => {
    const handler = handlerWith();
    const init = await handler(
      legacyPost(request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } })),
    );
    expect((await read(init)).body.result.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    const session = await openLegacySession(handler);
    const list = (await read(await handler(legacyPost(request('skills/list'), session)))).body.result;
    expect(list.skills).toHaveLength(2);
    expect(list).not.toHaveProperty('ttlMs');
    expect(list).not.toHaveProperty('resultType');
    const get = (await read(await handler(legacyPost(request('skills/get', { uri: 'skill://nope/SKILL.md' }), session)))).body;
    expect(get.error.code).toBe(-32602);
  });
});
