// The official v2 client's SkillsClient lists, gets and reads Parley's skills, verifying every file's size, digest and
// (for SKILL.md) frontmatter against the entry, on 2026-07-28 and on the legacy handshake.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/conformance/server';

let server: RunningServer;
beforeAll(async () => {
  server = await serve(config, { port: 0, quiet: true });
});
afterAll(() => server.close());

const VERSIONS = { '2026-07-28': { mode: { pin: '2026-07-28' } }, '2025-11-25 (legacy handshake)': undefined } as const;

describe.each(Object.entries(VERSIONS))('the official SkillsClient on %s', (_name, versionNegotiation) => {
  it('lists every skill across pages, gets each, and reads and verifies every file', async () => {
    const client = new Client({ name: 'skills-test', version: '1.0.0' }, versionNegotiation ? { versionNegotiation } : {});
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const skills = new SkillsClient(client);
      expect(skills.supported).toBe(true);
      expect(skills.directoryRead).toBe(true);
      const listing = await skills.list();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills.map((s) => s.uri)).toEqual(['skill://conformance-basic/SKILL.md', 'skill://acme/billing/refunds/SKILL.md']);
      const basic = listing.skills[0]!;
      expect(basic.frontmatter).toEqual({
        name: 'conformance-basic',
        description: 'A skill for the conformance suite, with references, a script and an image.',
        license: 'MIT',
        metadata: { author: 'parley', version: '1.0' },
      });
      const got = await skills.get(basic.uri);
      expect(got.skill).toEqual(basic);
      const files = basic.resources === 'dynamic' ? [] : basic.resources;
      expect(files.map((f) => f.uri)).toEqual([
        'skill://conformance-basic/SKILL.md',
        'skill://conformance-basic/references/guide.md',
        'skill://conformance-basic/scripts/run.py',
        'skill://conformance-basic/assets/pixel.png',
      ]);
      const skillMd = await skills.read(basic);
      expect(skillMd.verified).toBe(true);
      expect(skillMd.frontmatter).toEqual(basic.frontmatter);
      const pixel = await skills.read(basic, 'assets/pixel.png');
      expect(pixel.verified).toBe(true);
      expect(pixel.text).toBeUndefined();
      expect([...pixel.bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG');
      expect((await skills.read(basic, 'scripts/run.py')).text).toBe('print("ran")\n');
      const root = await skills.readDirectory('skill://conformance-basic');
      expect(root.resources.map((r) => [r.uri, r.mimeType])).toEqual([
        ['skill://conformance-basic/SKILL.md', 'text/markdown'],
        ['skill://conformance-basic/references', 'inode/directory'],
        ['skill://conformance-basic/scripts', 'inode/directory'],
        ['skill://conformance-basic/assets', 'inode/directory'],
      ]);
      const refunds = await skills.read(listing.skills[1]!);
      expect(refunds.body).toContain('Refund within 30 days');
    } finally {
      await client.close();
    }
  });
});

describe('frontmatter as a host reads it', () => {
  it('types scalars as YAML 1.2 does, so the SkillsClient finds the entry equal to the file', async () => {
    const front = [
      'name: typed',
      "description: 'It''s typed: numbers, flags, lists'   # a comment",
      'license: "Apache-2.0 \\u00e9\\t\\"quoted\\""',
      'version: 1.50',
      'count: 042',
      'hex: 0x1F',
      'flag: True',
      'nothing: ~',
      'empty:',
      'date: 2026-09-01',
      'word: C#',
      'url: https://example.com/a:b',
      'allowed-tools: Bash(git:*) Read',
      'x-settings:',
      '  depth: 2',
      '  inner:',
      '    deep: "yes"',
      'metadata:',
      '  author: parley',
      "  count: '3'",
      'tags:',
      '- one',
      "- 'two'",
      '- 3',
    ].join('\n');
    const { defineSkills } = await import('parley-mcp/skills');
    const running = await serve(
      {
        info: { name: 'typed', version: '1.0.0' },
        skills: defineSkills({ 'typed/SKILL.md': `\uFEFF---\r\n${front.replaceAll('\n', '\r\n')}\r\n---\r\nBody.\r\n` }),
      },
      { port: 0, quiet: true },
    );
    const client = new Client({ name: 'skills-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      const skills = new SkillsClient(client);
      const { skill } = await skills.get('skill://typed/SKILL.md');
      expect(skill.frontmatter).toEqual({
        name: 'typed',
        description: "It's typed: numbers, flags, lists",
        license: 'Apache-2.0 é\t"quoted"',
        version: 1.5,
        count: 42,
        hex: 31,
        flag: true,
        nothing: null,
        empty: null,
        date: '2026-09-01',
        word: 'C#',
        url: 'https://example.com/a:b',
        'allowed-tools': 'Bash(git:*) Read',
        'x-settings': { depth: 2, inner: { deep: 'yes' } },
        metadata: { author: 'parley', count: '3' },
        tags: ['one', 'two', 3],
      });
      const file = await skills.read(skill);
      expect(file.verified).toBe(true);
      expect(file.frontmatter).toEqual(skill.frontmatter);
    } finally {
      await client.close();
      await running.close();
    }
  });
});
