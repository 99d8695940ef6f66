// Watching a source tree so that it survives atomic saves. Node 20's recursive fs.watch on Linux watches each file, and
// a save that writes a temp file and renames it over (vim, VS Code, JetBrains, `sed -i`) leaves that watch on a file that
// is gone: later edits are never seen. A watch on each directory sees every entry that changes or is renamed in, and
// the directory outlives any save.
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join, relative } from 'node:path';

export interface TreeWatch {
  close(): void;
}

/**
 * Calls `onChange` with the path (relative to `root`) of each entry that changes, appears or goes, in `root` and every
 * folder below it that `skip` lets through; folders made later are watched as they appear.
 */
export function watchTree(root: string, onChange: (file: string) => void, skip: (relativePath: string) => boolean): TreeWatch {
  const watchers = new Map<string, FSWatcher>();
  const add = (dir: string) => {
    if (watchers.has(dir) || (dir !== root && skip(relative(root, dir)))) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, name) => {
        if (!name) return;
        const path = join(dir, name.toString());
        if (isDirectory(path)) add(path); // a new folder (or one renamed in): watch it and what it holds
        onChange(relative(root, path));
      });
    } catch {
      return; // gone already, or not readable
    }
    watcher.on('error', () => {
      watcher.close();
      watchers.delete(dir); // the folder went away
    });
    watchers.set(dir, watcher);
    for (const entry of entriesOf(dir)) if (entry.isDirectory()) add(join(dir, entry.name));
  };
  add(root);
  return {
    close() {
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function entriesOf(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
