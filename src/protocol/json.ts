// JSON from outside, read so that no name it carries can reach an object's prototype.

// Fast path: text with no `__proto__` and no \u escape cannot spell that key, so it is parsed without a reviver.
const MAY_SPELL_PROTO = /__proto__|\\u/;

const dropProto = (key: string, value: unknown): unknown => (key === '__proto__' ? undefined : value);

/**
 * JSON.parse without `__proto__` keys at any depth: an own `__proto__` key is harmless until someone copies it with
 * `target[key] = value` or Object.assign, which sets the target's prototype instead. Throws what JSON.parse throws.
 * @example parseJson('{"__proto__":{"admin":true},"a":1}') // { a: 1 }
 */
export function parseJson(text: string): unknown {
  return MAY_SPELL_PROTO.test(text) ? JSON.parse(text, dropProto) : JSON.parse(text);
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
 */
export function withoutProtoKeys<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const clean = withoutProtoKeys(item);
      if (clean !== item) (copy ??= [...value])[i] = clean;
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
    const clean = withoutProtoKeys(item);
    if (clean !== item) (copy ??= { ...record })[key] = clean;
  }
  return (copy ?? value) as T;
}
