// parley-mcp/skills: Agent Skills served over MCP (the Skills extension, SEP-2640) from files given in the config, on
// any runtime. Its own entry, so a server without skills (the help-desk Worker) bundles none of it.
import type { SkillFiles, SkillsSource } from '../../model';
import { buildCatalog } from './catalog';
import { skillResources, skillService } from './skill-service';

/** The extension's id in capabilities.extensions. */
const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

export interface SkillsOptions {
  /** Serve resources/directory/read (and declare `directoryRead`): a folder's direct children. Default true. */
  directoryRead?: boolean;
  /** Entries per page of skills/list and resources/directory/read. Default 100. */
  pageSize?: number;
}

/**
 * The config's `skills`: each folder holding a `SKILL.md` is a skill, served at `skill://<folder>/…` with its files.
 * `files` maps a path under the skills' root to its content (or is a function that reads them at startup, as
 * parley-mcp/node's skillsFolder() does). Checked when the server starts: a mistake stops it, naming the file.
 * @example const config = { info, apps: [], skills: defineSkills({ 'handbook/SKILL.md': handbookText }) };
 */
export function defineSkills(files: SkillFiles | (() => Promise<SkillFiles>), options: SkillsOptions = {}): SkillsSource {
  const { directoryRead = true, pageSize = 100 } = options;
  if (typeof directoryRead !== 'boolean') throw new Error('defineSkills: options.directoryRead is true or false');
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000)
    throw new Error('defineSkills: options.pageSize is a whole number from 1 to 1000');
  return async (resources, declared) => {
    if (declared.extensions && Object.hasOwn(declared.extensions, SKILLS_EXTENSION))
      throw new Error(`extensions: leave ${SKILLS_EXTENSION} out: skills declares it`);
    const catalog = await buildCatalog(typeof files === 'function' ? await files() : files);
    for (const entry of skillResources(catalog)) {
      if (resources.fixed.has(entry.uri)) throw new Error(`skills: ${entry.uri} is also an app's resource: give one of them another URI`);
      resources.fixed.set(entry.uri, entry);
    }
    resources.skills = skillService(catalog, { directoryRead, pageSize });
    declared.extensions = { ...declared.extensions, [SKILLS_EXTENSION]: directoryRead ? { directoryRead: true } : {} };
  };
}
