// parley-mcp/node's skillsFolder(): the config's skills read from a folder on disk at startup (Node only).
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { defineSkills, type SkillsOptions } from '../engine';
import type { SkillFiles, SkillsSource } from '../model';

async function readTree(root: string, under: string, into: [string, Uint8Array][]): Promise<void> {
  for (const entry of await readdir(path.join(root, under), { withFileTypes: true })) {
    // Hidden files (.git, .DS_Store) are no part of a skill.
    if (entry.name.startsWith('.')) continue;
    const relative = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await readTree(root, relative, into);
    else if (entry.isFile()) into.push([relative, await readFile(path.join(root, relative))]);
    else throw new Error(`skills: "${relative}" in ${root} is not a plain file or folder (a link?): copy the file in instead`);
  }
}

/**
 * The config's `skills`, read from a folder when the server starts: each subfolder holding a `SKILL.md` is a skill,
 * served at `skill://<subfolder>/…`. Files and folders whose names start with '.' are left out; a link is refused.
 * @example const config = { info, apps: [], skills: skillsFolder('./skills') };
 */
export function skillsFolder(folder: string, options?: SkillsOptions): SkillsSource {
  return defineSkills(async (): Promise<SkillFiles> => {
    const stat = await lstat(folder).catch(() => undefined);
    if (!stat?.isDirectory())
      throw new Error(`skills: skillsFolder("${folder}") names no folder: give the folder that holds your skills' folders`);
    const files: [string, Uint8Array][] = [];
    await readTree(path.resolve(folder), '', files);
    return Object.fromEntries(files);
  }, options);
}
