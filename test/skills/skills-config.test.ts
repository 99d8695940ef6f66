// A misconfigured skill stops the server at startup with one line naming the file (or option) and what to write.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { mcpRequest, read } from '../helpers/requests';
import { skillsFolder, serve } from 'parley-mcp/node';
import { defineSkills } from 'parley-mcp/skills';

const info = { name: 'skills', version: '1.0.0' };
const md = (front: string) => `---\n${front}\n---\nBody.\n`;
const ok = md('name: handbook\ndescription: Answers tickets.');

const startError = (skills: unknown, extra: Record<string, unknown> = {}) =>
  serve({ info, skills, ...extra } as never, { port: 0, quiet: true }).then(
    async (running) => {
      await running.close();
      return 'started';
    },
    (error: Error) => error.message,
  );

describe('skills checked at startup', () => {
  it.each([
    [{ 'handbook/SKILL.md': md('name: Handbook\ndescription: x') }, 'skills: "handbook/SKILL.md": write name: handbook'],
    [{ 'handbook/SKILL.md': md('name: other\ndescription: x') }, 'its name is "other" but its folder is "handbook"'],
    [{ 'handbook/SKILL.md': md('name: handbook') }, 'write description:'],
    [{ 'handbook/SKILL.md': 'no frontmatter' }, "SKILL.md must start with a line '---'"],
    [
      { 'handbook/SKILL.md': md('name: handbook\ndescription: >\n  folded') },
      'frontmatter line 3: write the value as a plain or quoted one-line string',
    ],
    [{ 'handbook/SKILL.md': md('name: handbook\ndescription: a: b') }, 'quote a value that holds ": "'],
    [{ 'handbook/SKILL.md': md('name: handbook\nname: handbook\ndescription: x') }, '"name" is given twice'],
    [{ 'handbook/SKILL.md': md('name: handbook\ndescription: x\nmetadata:\n  io.modelcontextprotocol/x: "1"') }, 'are reserved by MCP'],
    [{ 'handbook/SKILL.md': md('name: handbook\ndescription: x\nmetadata:\n  version: 1.0') }, 'write each value as a quoted string'],
    [{ 'handbook/SKILL.md': ok, 'handbook/../x.md': 'x' }, 'skills: "handbook/../x.md": write a relative path'],
    [{ 'handbook/SKILL.md': ok, '/etc/passwd': 'x' }, 'skills: "/etc/passwd": write a relative path'],
    [{ 'handbook/SKILL.md': ok, 'notes.md': 'x' }, 'skills: "notes.md": no SKILL.md in its folder or above'],
    [{ 'SKILL.md': ok }, 'a skill is a folder: write <name>/SKILL.md'],
    [{ '__proto__/SKILL.md': md('name: __proto__\ndescription: x') }, 'skills: "__proto__/SKILL.md": write name: <name>'],
    [{ 'handbook/SKILL.md': ok, 'handbook/a': 'x', 'handbook/a/b.md': 'y' }, '"handbook/a" is a file, so it cannot be a folder too'],
    [{ 'handbook/SKILL.md': ok, 'handbook/n.json': 42 }, "a file's content is a string or a Uint8Array"],
    [{ 'handbook/SKILL.md': new Uint8Array([0xff, 0xfe]) }, 'SKILL.md must be UTF-8 text'],
    [{ 'Acme/handbook/SKILL.md': ok }, '"Acme" is the URI\'s authority, which clients lowercase'],
  ])('refuses %j', async (files, message) => {
    const error = await startError(defineSkills(files as never));
    expect(error).toContain('Server failed to start');
    expect(error).toContain(message);
  });

  it('refuses a skill over 512 files or 16 MiB, and serves one at the limits', async () => {
    const many = Object.fromEntries(Array.from({ length: 512 }, (_, i) => [`handbook/f${i}.txt`, 'x']));
    expect(await startError(defineSkills({ 'handbook/SKILL.md': ok, ...many }))).toContain(
      'skills: "handbook" has 513 files: a skill holds at most 512',
    );
    const { 'handbook/f0.txt': _, ...fewer } = many;
    expect(await startError(defineSkills({ 'handbook/SKILL.md': ok, ...fewer }))).toBe('started');
    const big = new Uint8Array(16 * 1024 * 1024);
    expect(await startError(defineSkills({ 'handbook/SKILL.md': ok, 'handbook/big.bin': big }))).toContain(
      `skills: "handbook" holds ${16 * 1024 * 1024 + ok.length} bytes: a skill holds at most 16777216`,
    );
  });

  it('refuses a skills value that defineSkills() did not make, a duplicate URI, and a second declaration', async () => {
    expect(await startError({ files: {} })).toContain('skills: expected defineSkills()');
    expect(await startError(defineSkills({ 'handbook/SKILL.md': ok }), { extensions: { 'io.modelcontextprotocol/skills': {} } })).toContain(
      'extensions: leave io.modelcontextprotocol/skills out',
    );
    expect(() => defineSkills({}, { pageSize: 0 })).toThrow('defineSkills: options.pageSize is a whole number from 1 to 1000');
  });
});

describe('skillsFolder()', () => {
  it('reads the folder at startup, leaves hidden files out, and serves what it read', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'parley-skills-'));
    try {
      await mkdir(path.join(root, 'handbook/templates'), { recursive: true });
      await writeFile(path.join(root, 'handbook/SKILL.md'), ok);
      await writeFile(path.join(root, 'handbook/templates/apology.md'), 'Sorry.\n');
      await writeFile(path.join(root, 'handbook/.DS_Store'), 'junk');
      const handler = createFetchHandler({ info, skills: skillsFolder(root) });
      const listed = (await read(await handler(mcpRequest('skills/list')))).body.result;
      expect(listed.skills[0].resources.map((r: { uri: string }) => r.uri)).toEqual([
        'skill://handbook/SKILL.md',
        'skill://handbook/templates/apology.md',
      ]);
      expect(listed.skills[0].frontmatter).toEqual({ name: 'handbook', description: 'Answers tickets.' });
      await symlink(path.join(root, 'handbook/SKILL.md'), path.join(root, 'handbook/link.md'));
      expect(await startError(skillsFolder(root))).toContain('"handbook/link.md" in');
      expect(await startError(skillsFolder(path.join(root, 'missing')))).toContain('names no folder');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
