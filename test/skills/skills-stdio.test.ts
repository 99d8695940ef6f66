// Skills over stdio: the official SkillsClient lists, reads and verifies them from a spawned server, on both eras.
import { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';

const VERSIONS = { '2026-07-28': { mode: { pin: '2026-07-28' } }, '2025-11-25 (legacy handshake)': undefined } as const;

describe.each(Object.entries(VERSIONS))('skills over stdio on %s', (_name, versionNegotiation) => {
  it('lists, gets and reads every file of every skill, verified', { timeout: 30_000 }, async () => {
    const client = new Client({ name: 'skills-stdio', version: '1.0.0' }, versionNegotiation ? { versionNegotiation } : {});
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--conditions=parley-source', '--import', 'tsx', 'test/fixtures/skills-stdio-server.ts'],
        stderr: 'pipe',
      }),
    );
    try {
      const skills = new SkillsClient(client);
      const { skills: entries } = await skills.list();
      expect(entries.map((s) => s.frontmatter.name)).toEqual(['conformance-basic', 'refunds']);
      for (const entry of entries) {
        expect((await skills.get(entry.uri)).skill).toEqual(entry);
        for (const file of entry.resources === 'dynamic' ? [] : entry.resources)
          expect((await skills.read(entry, file.uri)).verified, file.uri).toBe(true);
      }
    } finally {
      await client.close();
    }
  });
});
