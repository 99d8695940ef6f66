// The default question file: questions.sqlite in $FRONTMCP_HOME (~/.frontmcp), made owner-only, refused in the clear
// when the group or others could read it or replace it.
import { chmodSync, lstatSync, mkdirSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

type HomeFile = { path: string } | { refused: string };

const uid = () => process.getuid?.();
const ownedByUs = (s: Stats) => uid() === undefined || s.uid === uid();

/**
 * Where the default question file goes, after making its folder owner-only. Unencrypted (no secret), the file is
 * refused when the group or others could read or write it, or the folder lets them replace it.
 */
export function defaultQuestionFile(home: string | undefined, encrypted: boolean): HomeFile {
  const dir = home && home !== '' ? home : join(homedir(), '.frontmcp');
  const path = join(dir, 'questions.sqlite');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const folder = lstatSync(dir);
  if (!folder.isDirectory()) return { refused: `${dir} is not a folder` };
  if (ownedByUs(folder) && (folder.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  if (encrypted) return { path };
  const fix = `make it owner-only (chmod 700 ${dir}; chmod 600 ${path}), set MCP_ELICITATION_SECRET to encrypt it, or name persistent.storage`;
  const after = lstatSync(dir);
  if (!ownedByUs(after) || (after.mode & 0o022) !== 0)
    return { refused: `the group or others could replace ${path} (its folder is not owner-only): ${fix}` };
  let file: Stats | undefined;
  try {
    file = lstatSync(path);
  } catch {
    return { path }; // created owner-only by the SQLite store
  }
  if (file.isSymbolicLink() || !file.isFile()) return { refused: `${path} is not a plain file: ${fix}` };
  if (!ownedByUs(file) || (file.mode & 0o066) !== 0) return { refused: `the group or others could read or change ${path}: ${fix}` };
  return { path };
}
