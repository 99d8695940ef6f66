// JSON from outside, read so that no name it carries can reach an object's prototype and no nesting can exhaust the stack.
import { type McpWireError, wireError } from './errors';

/**
 * How deep arrays and objects may nest in JSON from outside (a message, an answer, in-process arguments): deeper is
 * refused before anything walks it, so no recursive walk (a digest, sealing, validation) can run out of stack.
 */
export const MAX_JSON_DEPTH = 128;

/** The refusal of a value nested deeper than MAX_JSON_DEPTH: -32602, a value the server cannot take. */
export const tooDeep = (): McpWireError =>
  wireError('INVALID_PARAMS', `Invalid params: arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels`);

/** The length of the shortest JSON nested deeper than MAX_JSON_DEPTH: one more opening bracket than it allows, each closed. */
const SHORTEST_TOO_DEEP = 2 * (MAX_JSON_DEPTH + 1);

/** True when `[` and `{` occur more than `max` times in the text, strings included: by indexOf, far cheaper than a scan. */
function opensMoreThan(text: string, max: number): boolean {
  let n = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) if (++n > max) return true;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) if (++n > max) return true;
  return false;
}

/** True when the text's arrays and objects nest deeper than `max`: one pass, its strings skipped by indexOf. */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // To the closing quote: the next one not escaped by an odd run of backslashes (an unclosed string ends the text).
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i === -1) return false;
        let b = i - 1;
        while (text.charCodeAt(b) === 0x5c) b--;
        if ((i - b) % 2 === 1) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

// Fast path: text with no `__proto__` and no \u escape cannot spell that key, so it is parsed without a reviver (two
// indexOf, cheaper than a regular expression's scan).
const mayNameProto = (text: string): boolean => text.includes('__proto__') || text.includes('\\u');

const dropProto = (key: string, value: unknown): unknown => (key === '__proto__' ? undefined : value);

/**
 * JSON.parse without `__proto__` keys at any depth: an own `__proto__` key is harmless until someone copies it with
 * `target[key] = value` or Object.assign, which sets the target's prototype instead. Text nested deeper than
 * MAX_JSON_DEPTH throws `tooDeep()` (a McpWireError); anything else throws what JSON.parse throws.
 * @example parseJson('{"__proto__":{"admin":true},"a":1}') // { a: 1 }
 */
export function parseJson(text: string): unknown {
  // Fast paths, not scanned: text with no more than MAX_JSON_DEPTH opening brackets cannot nest past it, and JSON that
  // does needs as many closing ones, so shorter text (most messages) is either shallow enough or not JSON at all.
  if (text.length >= SHORTEST_TOO_DEEP && opensMoreThan(text, MAX_JSON_DEPTH) && nestsDeeperThan(text, MAX_JSON_DEPTH)) throw tooDeep();
  return mayNameProto(text) ? JSON.parse(text, dropProto) : JSON.parse(text);
}

/**
 * JSON.stringify's text for a string: the string in quotes when every character is printable ASCII other than `"` and
 * `\\` (nothing to escape), else JSON.stringify's own. A loop over a short string costs less than the call into it.
 */
export function jsonString(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return JSON.stringify(text);
  }
  return `"${text}"`;
}

/** Reads a key of an object from outside only when it is the object's own: never Object.prototype's `constructor`. */
export const ownValue = (object: Record<string, unknown>, key: string): unknown => (Object.hasOwn(object, key) ? object[key] : undefined);

const isPlain = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * The value without own `__proto__` keys in its plain objects and arrays, at any depth: what parseJson does for text,
 * for values handed over in-process. Copies only what it changes; class instances (a Date, a Map) are left as they are.
 * Arrays and objects nested deeper than MAX_JSON_DEPTH (or a cycle through them) throw `tooDeep()`, as parseJson does.
 */
export const withoutProtoKeys = <T>(value: T): T => clean(value, 1);

function clean<T>(value: T, depth: number): T {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_JSON_DEPTH) throw tooDeep();
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const kept = clean(item, depth + 1);
      if (kept !== item) (copy ??= [...value])[i] = kept;
    });
    return (copy ?? value) as T;
  }
  if (!isPlain(value)) return value;
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  if (Object.hasOwn(record, '__proto__')) {
    copy = {};
    for (const key of Object.keys(record)) if (key !== '__proto__') copy[key] = record[key];
  }
  for (const key of Object.keys(copy ?? record)) {
    const item = record[key];
    const kept = clean(item, depth + 1);
    if (kept !== item) (copy ??= { ...record })[key] = kept;
  }
  return (copy ?? value) as T;
}
