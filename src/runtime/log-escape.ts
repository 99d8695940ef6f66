// Keeping log lines one line each and plain text: every character a terminal or a log viewer would act on (a line
// break, an escape sequence, a bidi override) is written as a visible escape, `\x85` or `\u202e`, whoever wrote it.
// The logger passes every message and its details through here (src/runtime/logger.ts), so no line can forget it.
//
// Escaped: C0 controls (tab, CR and LF too), DEL, C1 controls (0x85 NEL is a line break to Unicode-aware readers, 0x9B
// an 8-bit CSI), U+2028 and U+2029 (line and paragraph separators), the bidi controls (U+061C, U+200E, U+200F,
// U+202A–202E, U+2066–2069), and the invisible U+200B and U+FEFF. A code point up to 0xFF is written `\xHH`, the others
// `\uHHHH`: JavaScript's own notation, which names the code point exactly. A backslash is doubled where it would
// otherwise read as the start of an escape (before `x`, `u`, a backslash or an escaped character), so `\x85` in a line
// is always an escape and a client's literal text `\x85` is written `\\x85`. Everything else, backslashes in paths and
// JSON included, is written as it is.

/** All that JSON.stringify leaves raw (it escapes C0 controls itself): DEL, C1, separators, bidi, invisibles. */
const BEYOND_C0 = '\\u007f-\\u009f\\u061c\\u200b\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069\\ufeff';
const UNSAFE = `\\u0000-\\u001f${BEYOND_C0}`;
/** One test on the hot path: a line with nothing to escape is returned as it is. */
const NEEDS = new RegExp(`[${UNSAFE}]|\\\\(?=[\\\\xu${UNSAFE}])`);
const EACH = new RegExp(NEEDS.source, 'g');
const JSON_UNSAFE = new RegExp(`[${BEYOND_C0}]`, 'g');
/** Deeper than the redactor keeps (8), so only a value that did not pass it is cut here. */
const MAX_DEPTH = 10;

const escapeOne = (char: string): string => {
  if (char === '\\') return '\\\\';
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * The text with every control, line separator and bidi control written as a visible escape.
 * @example escapeLogText('x\r\n[parley] ERROR forged'); // 'x\\x0d\\x0a[parley] ERROR forged'
 */
export const escapeLogText = (text: string): string => (NEEDS.test(text) ? text.replace(EACH, escapeOne) : text);

/** A JSON text with every character above written `\uHHHH`, which JSON reads back as the character itself. */
export const escapeJsonText = (json: string): string =>
  json.replace(JSON_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * A value to log with every string in it escaped (keys too, and an Error's message and stack), copied only where
 * something changed. An Error's stack keeps the line breaks between its frames, which the runtime wrote.
 */
export function escapeLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return escapeLogText(value);
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || value instanceof Date) return value;
  if (depth >= MAX_DEPTH) return '[…]';
  const inner = (v: unknown) => escapeLogValue(v, depth + 1);
  if (value instanceof Error) return escapeError(value, inner);
  if (Array.isArray(value)) {
    const out = value.map(inner);
    return out.some((v, i) => v !== value[i]) ? out : value;
  }
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [inner(k), inner(v)]));
  if (value instanceof Set) return new Set([...value].map(inner));
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = escapeLogText(k);
    const escaped = inner(v);
    if (key !== k || escaped !== v) changed = true;
    out[key] = escaped;
  }
  return changed ? out : value;
}

function escapeError(error: Error, inner: (v: unknown) => unknown): Error {
  const copy = new Error(escapeLogText(error.message));
  copy.name = escapeLogText(error.name);
  copy.stack = typeof error.stack === 'string' ? escapeStack(error) : undefined;
  for (const [k, v] of Object.entries(error)) (copy as unknown as Record<string, unknown>)[escapeLogText(k)] = inner(v);
  if ('cause' in error) copy.cause = inner(error.cause);
  const errors = (error as { errors?: unknown }).errors; // AggregateError's, not enumerable
  if (Array.isArray(errors)) (copy as { errors?: unknown }).errors = inner(errors);
  return copy;
}

/** `Name: message` escaped whole (the message may be anyone's), the frames after it line by line. */
function escapeStack(error: Error): string {
  const stack = error.stack!;
  const head = error.message ? `${error.name}: ${error.message}` : error.name;
  if (!stack.startsWith(head)) return escapeLogText(stack);
  return escapeLogText(head) + stack.slice(head.length).split('\n').map(escapeLogText).join('\n');
}
