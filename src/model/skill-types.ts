// Skills' files as the config gives them, and the Skills extension's answers as the engine calls them (SkillService).
import type { CacheHint } from './resource-context';

/** A skill file's content: text (served as `text`) or bytes (served as `text` when they are UTF-8 of a text type). */
type SkillFileContent = string | Uint8Array;

/** Files by their path under the skills' root, `handbook/SKILL.md` → its content. */
export type SkillFiles = Record<string, SkillFileContent>;

/** The Skills extension (SEP-2640) as built at startup: its files are resources, its methods answered here. */
export interface SkillService {
  /** skills/list, skills/get and resources/directory/read; `cache`: the server's, which every answer carries. */
  answer(method: string, params: Record<string, unknown>, cache: CacheHint): Record<string, unknown>;
}
