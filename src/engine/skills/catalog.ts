// The skills of the config's files, checked once at startup: each folder holding a SKILL.md is a skill, its entry the
// frontmatter as written and every file under it with its digest and size (SEP-2640). A mistake stops the server.
import { frontmatterOf } from './frontmatter';
import { digestOf, pathProblem, servedFile, type ServedFile } from './skill-files';

/** The extension's limits per skill (SKILL.md included): hosts accept up to these, so Parley serves no more. */
const MAX_FILES_PER_SKILL = 512;
const MAX_BYTES_PER_SKILL = 16 * 1024 * 1024;

const NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
const RESERVED_METADATA = 'io.modelcontextprotocol/';

interface SkillEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: { uri: string; digest: string; size: number }[];
}

/** A file as listed: its name is its path in the deepest skill holding it (a SKILL.md's, the skill's name). */
export type CatalogFile = ServedFile & { name: string; description?: string };

export interface Catalog {
  /** In the order their SKILL.md was given. */
  skills: SkillEntry[];
  /** Every file, by path. */
  files: Map<string, CatalogFile>;
}

export const skillUri = (path: string) => `skill://${path}`;

/** The folders a path is in, outermost first: `a/b/c.md` → `a`, `a/b`. */
export const foldersOf = (path: string): string[] =>
  path
    .split('/')
    .slice(0, -1)
    .map((_, i, segments) => segments.slice(0, i + 1).join('/'));

/** Throws `skills: "<path>": <what is wrong>; <what to write>` for the first mistake. */
export async function buildCatalog(given: unknown): Promise<Catalog> {
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw new Error("skills: give the files as an object of path → content, e.g. { 'handbook/SKILL.md': '---\\nname: handbook\\n…' }");
  const files = new Map<string, CatalogFile>();
  for (const [path, content] of Object.entries(given)) {
    const problem = pathProblem(path);
    if (problem) throw new Error(`skills: "${path}": ${problem}`);
    if (typeof content !== 'string' && !(content instanceof Uint8Array))
      throw new Error(`skills: "${path}": a file's content is a string or a Uint8Array`);
    files.set(path, { ...servedFile(path, content), name: path });
  }
  const roots = [...files.keys()].filter((p) => p === 'SKILL.md' || p.endsWith('/SKILL.md')).map((p) => p.slice(0, -'/SKILL.md'.length));
  for (const path of files.keys()) {
    if (path === 'SKILL.md')
      throw new Error('skills: "SKILL.md": a skill is a folder: write <name>/SKILL.md, its folder named as its frontmatter name');
    const asFile = foldersOf(path).find((folder) => files.has(folder));
    if (asFile) throw new Error(`skills: "${path}": "${asFile}" is a file, so it cannot be a folder too`);
    const deepest = roots.filter((root) => path.startsWith(`${root}/`)).sort((a, b) => b.length - a.length)[0];
    if (deepest === undefined) throw new Error(`skills: "${path}": no SKILL.md in its folder or above: put it in a skill's folder`);
    files.get(path)!.name = path.slice(deepest.length + 1);
  }
  const digests = new Map(await Promise.all([...files.values()].map(async (f) => [f.path, await digestOf(f.bytes)] as const)));
  const skills = roots.map((root) => {
    const skillMd = files.get(`${root}/SKILL.md`)!;
    const frontmatter = checkedFrontmatter(root, skillMd);
    Object.assign(skillMd, { name: frontmatter.name, description: frontmatter.description });
    const inside = [skillMd, ...[...files.values()].filter((f) => f !== skillMd && f.path.startsWith(`${root}/`))];
    const size = inside.reduce((sum, f) => sum + f.bytes.length, 0);
    if (inside.length > MAX_FILES_PER_SKILL)
      throw new Error(
        `skills: "${root}" has ${inside.length} files: a skill holds at most ${MAX_FILES_PER_SKILL} (SKILL.md included); split it or move files out`,
      );
    if (size > MAX_BYTES_PER_SKILL)
      throw new Error(
        `skills: "${root}" holds ${size} bytes: a skill holds at most ${MAX_BYTES_PER_SKILL} (16 MiB); split it or move files out`,
      );
    const resources = inside.map((f) => ({ uri: skillUri(f.path), digest: digests.get(f.path)!, size: f.bytes.length }));
    return { uri: skillUri(`${root}/SKILL.md`), frontmatter, resources };
  });
  return { skills, files };
}

function checkedFrontmatter(root: string, skillMd: ServedFile): Record<string, unknown> & { name: string; description: string } {
  const where = `skills: "${skillMd.path}"`;
  if (skillMd.text === undefined) throw new Error(`${where}: SKILL.md must be UTF-8 text`);
  let frontmatter: Record<string, unknown>;
  try {
    frontmatter = frontmatterOf(skillMd.text);
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`);
  }
  const folder = root.slice(root.lastIndexOf('/') + 1);
  const { name, description, metadata, compatibility } = frontmatter;
  if (typeof name !== 'string' || !NAME.test(name))
    throw new Error(
      `${where}: write name: ${NAME.test(folder) ? folder : '<name>'} (1 to 64 lowercase letters, digits and single hyphens, not at either end)`,
    );
  if (name !== folder)
    throw new Error(`${where}: its name is "${name}" but its folder is "${folder}": name the folder ${name}, or write name: ${folder}`);
  if (typeof description !== 'string' || description.trim() === '' || [...description].length > 1024)
    throw new Error(`${where}: write description: what the skill does and when to use it (1 to 1024 characters)`);
  const first = root.split('/')[0]!;
  if (first !== first.toLowerCase())
    throw new Error(`${where}: "${first}" is the URI's authority, which clients lowercase: write it in lowercase`);
  if (compatibility !== undefined && (typeof compatibility !== 'string' || compatibility === '' || [...compatibility].length > 500))
    throw new Error(`${where}: write compatibility: as text of 1 to 500 characters, or leave it out`);
  if (metadata === undefined) return frontmatter as Record<string, unknown> & { name: string; description: string };
  // Agent Skills' metadata maps strings to strings: hosts refuse a skill with anything else in it.
  if (
    typeof metadata !== 'object' ||
    metadata === null ||
    Array.isArray(metadata) ||
    Object.values(metadata).some((v) => typeof v !== 'string')
  )
    throw new Error(`${where}: metadata maps keys to text: write each value as a quoted string (version: "1.0")`);
  if (Object.keys(metadata).some((key) => key.startsWith(RESERVED_METADATA)))
    throw new Error(`${where}: metadata keys starting ${RESERVED_METADATA} are reserved by MCP: rename them`);
  return frontmatter as Record<string, unknown> & { name: string; description: string };
}
