// The log's escaping: every control, line separator and bidi control written as a visible escape, in the line and in
// its details, for Parley's logger and for a logger the app gives; the escape reads back to exactly what was sent.
import { expect, it } from 'vitest';
import { createLogger, createRedactor, redactingLogger } from '../../src/runtime';
import { escapeLogText, escapeLogValue } from '../../src/runtime/log-escape';

const EVIL = 'a\r\n[parley] ERROR b\u001b[31m\u0085\u009b\u007f\t\u2028\u2029\u202e\u2066\u200b\ufeff';
const SHOWN = 'a\\x0d\\x0a[parley] ERROR b\\x1b[31m\\x85\\x9b\\x7f\\x09\\u2028\\u2029\\u202e\\u2066\\u200b\\ufeff';

/** Reads an escaped line back: `\\` is a backslash, `\xHH` and `\uHHHH` a code point, any other backslash itself. */
const unescape = (text: string) =>
  text.replace(/\\(\\|x[0-9a-f]{2}|u[0-9a-f]{4})/g, (_, e: string) =>
    e === '\\' ? '\\' : String.fromCharCode(Number.parseInt(e.slice(1), 16)),
  );

it('writes each control as \\xHH and each separator or bidi control as \\uHHHH', () => {
  expect(escapeLogText(EVIL)).toBe(SHOWN);
});

it('leaves plain text, paths and JSON as they are, the same string', () => {
  const plain = 'tools/call close_ticket → ok: {"a":"b\\"c"} C:\\Users\\me é 日本 👩‍💻';
  expect(escapeLogText(plain)).toBe(plain);
});

it('is unambiguous: a backslash that would read as an escape is doubled, and every line reads back to what was sent', () => {
  expect(escapeLogText('\\x85')).toBe('\\\\x85'); // the text, not NEL
  expect(escapeLogText('\u0085')).toBe('\\x85');
  for (const sent of ['\\x85', '\\\u0085', '\\\\x1b', 'C:\\u\\x', 'a\\', '\\\\', EVIL, `\\${EVIL}\\`])
    expect(unescape(escapeLogText(sent))).toBe(sent);
});

it('escapes every string in details: values, keys, Maps, Sets, and an Error (its stack keeps its frames on lines)', () => {
  const error = new Error(EVIL);
  const escaped = escapeLogValue({ [EVIL]: [EVIL], map: new Map([[EVIL, EVIL]]), set: new Set([EVIL]), error }) as any;
  expect(escaped[SHOWN]).toEqual([SHOWN]);
  expect([...escaped.map]).toEqual([[SHOWN, SHOWN]]);
  expect([...escaped.set]).toEqual([SHOWN]);
  expect(escaped.error.message).toBe(SHOWN);
  const [head, ...frames] = (escaped.error.stack as string).split('\n');
  expect(head).toBe(`Error: ${SHOWN}`);
  expect(frames.length).toBeGreaterThan(0);
  for (const frame of frames) expect(frame).toMatch(/^ {4}at /);
  const clean = { a: ['b', { c: 1 }] };
  expect(escapeLogValue(clean)).toBe(clean); // nothing to escape: nothing copied
});

it("escapes Parley's lines and details, and what an app's own logger receives", () => {
  const seen: unknown[][] = [];
  createLogger('info', (line, details) => void seen.push([line, details])).warn(`Origin "${EVIL}"`, { origin: EVIL });
  expect(seen).toEqual([[`[parley] WARN Origin "${SHOWN}"`, { origin: SHOWN }]]);
  const got: unknown[][] = [];
  const own = { debug() {}, info() {}, warn: (...args: unknown[]) => void got.push(args), error() {} };
  redactingLogger(own, createRedactor()).warn(`Origin "${EVIL}"`, { origin: EVIL });
  expect(got).toEqual([[`Origin "${SHOWN}"`, { origin: SHOWN }]]);
});
