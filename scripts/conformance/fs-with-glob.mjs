// node:fs plus a small globSync (Node 22+), enough for the suite's `globSync('**/name.ext', { cwd })`.
import fs from 'node:fs';
import path from 'node:path';

export * from 'node:fs';
export default fs;

const toRegExp = (glob) =>
  new RegExp(
    `^${glob
      .split('/')
      .map((part) =>
        part === '**'
          ? '(?:.*/)?'
          : `${part
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]')}/`,
      )
      .join('')
      .slice(0, -1)
      .replace(/\(\?:\.\*\/\)\?\/?$/, '.*')}$`,
  );

/** Paths under cwd (relative, with /) whose relative path matches the pattern. */
export function globSync(pattern, options = {}) {
  const cwd = options.cwd ? String(options.cwd) : process.cwd();
  const patterns = Array.isArray(pattern) ? pattern : [pattern];
  const regexps = patterns.map((p) => toRegExp(p.replace(/^\.\//, '')));
  const entries = fs.readdirSync(cwd, { recursive: true }).map((entry) => String(entry).split(path.sep).join('/'));
  return entries.filter((entry) => regexps.some((re) => re.test(entry)));
}
