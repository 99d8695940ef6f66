// A SKILL.md's YAML frontmatter as JSON: the subset skills write (block mappings, sequences of scalars, one-line
// scalars typed as YAML 1.2's core schema types them), so the entry equals what a host's YAML parser reads from the
// file. Anything else is refused with what to write instead, never read differently from a host.

type Line = { indent: number; text: string; n: number };

const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
const BOOLS = new Map([
  ...['true', 'True', 'TRUE'].map((s) => [s, true] as const),
  ...['false', 'False', 'FALSE'].map((s) => [s, false] as const),
]);
const ESCAPES = new Map(
  Object.entries({ '0': '\0', b: '\b', t: '\t', n: '\n', r: '\r', f: '\f', e: '\x1b', '"': '"', '/': '/', '\\': '\\', ' ': ' ' }),
);

const fail = (line: Line | undefined, what: string): never => {
  throw new Error(`frontmatter line ${line ? line.n : '?'}: ${what}`);
};

/** Splits off the frontmatter (a leading BOM allowed): the text between the first line `---` and the next. */
export function frontmatterOf(text: string): Record<string, unknown> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0] !== '---')
    throw new Error("SKILL.md must start with a line '---', then the frontmatter (name: …, description: …), then '---'");
  const end = lines.indexOf('---', 1);
  if (end < 0) throw new Error("the frontmatter has no closing line '---'");
  const body: Line[] = [];
  for (let i = 1; i < end; i++) {
    const raw = lines[i]!;
    if (/^\s*(#.*)?$/.test(raw)) continue;
    const indent = raw.length - raw.trimStart().length;
    if (raw.slice(0, indent).includes('\t')) fail({ indent, text: raw, n: i + 1 }, 'indent with spaces, not tabs');
    body.push({ indent, text: raw.trim(), n: i + 1 });
  }
  const cursor = { at: 0 };
  const value = mapping(body, cursor, 0);
  if (cursor.at < body.length) fail(body[cursor.at], 'this line is indented differently from the keys above it');
  return value;
}

function mapping(lines: Line[], cursor: { at: number }, indent: number): Record<string, unknown> {
  const out = new Map<string, unknown>();
  for (let line = lines[cursor.at]; line && line.indent === indent; line = lines[cursor.at]) {
    const { key, rest } = keyOf(line);
    if (out.has(key)) fail(line, `"${key}" is given twice`);
    cursor.at++;
    const next = lines[cursor.at];
    const listed = next && /^-(\s|$)/.test(next.text);
    if (stripComment(rest) === '' && next && (next.indent > indent || (listed && next.indent === indent)))
      out.set(key, listed ? sequence(lines, cursor, next.indent) : mapping(lines, cursor, next.indent));
    else {
      out.set(key, scalar(rest, line));
      if (next && next.indent > indent) fail(next, 'write the value on one line (a quoted string for long text)');
    }
  }
  return Object.fromEntries(out);
}

/** A `key: value` line's key (plain, or quoted with no escapes) and the text after its colon. */
function keyOf(line: Line): { key: string; rest: string } {
  const quoted = /^(["'])([^"'\\]*)\1\s*:(?:\s+(.*))?$/.exec(line.text);
  if (quoted) return { key: quoted[2]!, rest: quoted[3] ?? '' };
  const colon = line.text.search(/:(\s|$)/);
  const key = colon < 0 ? '' : line.text.slice(0, colon).trimEnd();
  if (!/^[A-Za-z0-9_][\w./ -]*$/.test(key)) fail(line, 'write a key and its value, `key: value`');
  return { key, rest: line.text.slice(colon + 1).trim() };
}

function sequence(lines: Line[], cursor: { at: number }, indent: number): unknown[] {
  const out: unknown[] = [];
  for (let line = lines[cursor.at]; line && line.indent === indent && /^-(\s|$)/.test(line.text); line = lines[cursor.at]) {
    const item = line.text.slice(1).trim();
    if (/^[^'"]*:(\s|$)/.test(item)) fail(line, 'a list holds plain values here (`- value`), not mappings');
    cursor.at++;
    out.push(scalar(item, line));
  }
  return out;
}

const stripComment = (text: string) => text.replace(/(^|\s)#.*$/, '').trim();

/** One scalar, typed as the core schema types it. */
function scalar(text: string, line: Line): unknown {
  if (text.startsWith('"'))
    return quoted(text, line, /^"((?:[^"\\]|\\.)*)"/, (s) =>
      s.replace(/\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|.)/g, (_, e: string) => unescape(e, line)),
    );
  if (text.startsWith("'")) return quoted(text, line, /^'((?:[^']|'')*)'/, (s) => s.replace(/''/g, "'"));
  if (/^([[{|>&*!%@`,]|[-?:](\s|$))/.test(text))
    fail(line, 'write the value as a plain or quoted one-line string (no flow, block, anchor or tag syntax)');
  const plain = stripComment(text);
  if (/:\s|\s#|:$/.test(plain)) fail(line, 'quote a value that holds ": " or " #"');
  if (NULLS.has(plain)) return null;
  if (BOOLS.has(plain)) return BOOLS.get(plain);
  let n: number | undefined;
  if (/^[-+]?[0-9]+$/.test(plain)) n = Number(plain);
  else if (/^0o[0-7]+$/.test(plain)) n = Number.parseInt(plain.slice(2), 8);
  else if (/^0x[0-9a-fA-F]+$/.test(plain)) n = Number.parseInt(plain.slice(2), 16);
  else if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(plain)) n = Number(plain);
  else if (/^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$/.test(plain)) fail(line, 'infinity and NaN have no JSON form: quote the value');
  if (n === undefined) return plain;
  if (!Number.isFinite(n)) fail(line, 'a number this large has no JSON form: quote the value');
  return n;
}

function quoted(text: string, line: Line, pattern: RegExp, decode: (s: string) => string): string {
  const match = pattern.exec(text);
  if (!match || stripComment(text.slice(match[0].length)) !== '') fail(line, 'close the quoted string on the same line');
  return decode(match![1]!);
}

function unescape(escape: string, line: Line): string {
  if (escape.length > 1) return String.fromCharCode(Number.parseInt(escape.slice(1), 16));
  return ESCAPES.get(escape) ?? fail(line, `\\${escape} is not an escape YAML knows`);
}
