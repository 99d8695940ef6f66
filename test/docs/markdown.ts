// Reading the docs' Markdown for pages.test.ts: headings as GitHub anchors them, relative links, and marked code blocks.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

/** The pages checked: the README, SECURITY.md, the changelog, every page under docs/ and test/docs/README.md. */
export function pages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name));
  return [join(ROOT, 'README.md'), join(ROOT, 'SECURITY.md'), join(ROOT, 'CHANGELOG.md'), ...docs, join(ROOT, 'test/docs/README.md')];
}

export const shortName = (file: string) => relative(ROOT, file);

/** A page's lines outside fenced code blocks, with their 1-based line numbers. */
function prose(text: string): { line: string; at: number }[] {
  const out: { line: string; at: number }[] = [];
  let fenced = false;
  text.split('\n').forEach((line, index) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) out.push({ line, at: index + 1 });
  });
  return out;
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped (not hyphens or underscores), each space a hyphen. */
export const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');

/** Every anchor a page's headings make, with GitHub's -1, -2 … for repeats. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { line } of prose(text)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

/** Relative link targets in a page's prose (images too), skipping inline code and absolute URLs. */
export function links(text: string): { target: string; at: number }[] {
  const out: { target: string; at: number }[] = [];
  for (const { line, at } of prose(text)) {
    const bare = line.replace(/`[^`]*`/g, '');
    for (const match of bare.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (!/^[a-z][a-z+.-]*:/i.test(target)) out.push({ target, at });
    }
  }
  return out;
}

export interface CheckedBlock {
  /** The file name the marker gives (`<!-- check: server.ts -->`), else block-<line>.<ts|js>. */
  name: string;
  lang: 'ts' | 'js';
  code: string;
  at: number;
}

/**
 * The code blocks a page marks for checking: a line `<!-- check -->` or `<!-- check: name -->` right before the fence.
 * A marker not followed by a ```ts or ```js fence is an error, so a block can't silently go unchecked.
 */
export function checkedBlocks(text: string): CheckedBlock[] {
  const lines = text.split('\n');
  const out: CheckedBlock[] = [];
  lines.forEach((line, index) => {
    const marker = /^<!--\s*check(?::\s*(\S+))?\s*-->$/.exec(line.trim());
    if (!marker) return;
    const fence = /^```(ts|js)\s*$/.exec(lines[index + 1] ?? '');
    if (!fence) throw new Error(`line ${index + 1}: <!-- check --> must be followed by a \`\`\`ts or \`\`\`js block`);
    const end = lines.findIndex((l, i) => i > index + 1 && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`line ${index + 2}: the code block never closes`);
    const lang = fence[1] as 'ts' | 'js';
    out.push({ name: marker[1] ?? `block-${index + 2}.${lang}`, lang, code: `${lines.slice(index + 2, end).join('\n')}\n`, at: index + 2 });
  });
  return out;
}

/**
 * The ```ts and ```js blocks a page neither marks for checking nor marks `<!-- fragment -->` (a few lines of a larger
 * program, shown in place): each is a block a reader may copy whole that nothing compiles.
 */
export function unmarkedBlocks(text: string): number[] {
  const lines = text.split('\n');
  const out: number[] = [];
  let fenced = false;
  lines.forEach((line, index) => {
    if (!/^\s*```/.test(line)) return;
    if (!fenced && /^```(ts|js|typescript|javascript|tsx|jsx|mjs)\s*$/.test(line)) {
      const marker = (lines[index - 1] ?? '').trim();
      if (!/^<!--\s*(check(:\s*\S+)?|fragment)\s*-->$/.test(marker)) out.push(index + 1);
    }
    fenced = !fenced;
  });
  return out;
}

/** The lines of the first plain ``` block whose first line starts with `prefix` (a banner the page shows). */
export function shownOutput(text: string, prefix: string): string[] | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((l, i) => (lines[i - 1] ?? '').trim() === '```' && l.startsWith(prefix));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && l.trim() === '```');
  return lines.slice(start, end);
}

export const read = (file: string) => readFileSync(file, 'utf8');
