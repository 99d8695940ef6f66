// A quick yes for the plain schemas most tools declare (types, properties, required, bounds, a pattern, a format),
// so a valid call skips the interpreting validator, which walks the schema and builds error paths for every value and
// compiles each `pattern` again on every check (bench/validators.ts: 1.4 µs for a one-field object, 22 µs for a ticket).
// It only ever answers "valid": anything else, and every schema that uses a keyword outside its list, goes on to
// @cfworker/json-schema, whose verdict and issues stand. Its answers follow that validator's rules keyword for keyword
// (test/model/json-schema-quick.test.ts compares the two on seeded random schemas and values).
import { format as FORMATS, type SchemaDraft } from '@cfworker/json-schema';

/** True when the value certainly fits the schema; false when the full validator must say. */
type QuickCheck = (value: unknown) => boolean;

// Keywords that say nothing about the value (no $ref in a quick schema, so $defs are never reached).
const ANNOTATIONS = new Set([
  '$schema',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$defs',
  'definitions',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isPrimitive = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

// The validator's own type names; undefined for what JSON cannot carry (the validator throws on those).
function typeOf(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const kind = typeof value;
  return kind === 'string' || kind === 'number' || kind === 'boolean' || kind === 'object' ? kind : undefined;
}

const hasType = (type: string, kind: string, value: unknown) =>
  type === kind || (type === 'integer' && kind === 'number' && (value as number) % 1 === 0);

// The validator reads a pattern as a Unicode regular expression; one that is none is left to it (to refuse).
function regExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

// Code points, as the validator counts a string's length (a lone surrogate counts as one).
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** The quick check of a schema (prepared by compileJsonSchema), or undefined when it uses anything it does not cover. */
export function quickCheck(schema: unknown, draft: SchemaDraft): QuickCheck | undefined {
  // Draft 4's exclusiveMinimum/Maximum are flags that change minimum/maximum: left to the validator.
  return draft === '4' ? undefined : compile(schema);
}

function compile(node: unknown): QuickCheck | undefined {
  if (node === true) return () => true;
  if (!isObject(node)) return undefined; // `false`, or no schema: the validator says what is wrong
  const tests: QuickCheck[] = [];
  const add = (test: QuickCheck | undefined) => (test ? tests.push(test) : false);
  for (const [keyword, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(keyword)) continue;
    // additionalProperties is read with properties; the others each add one test or make the schema not quick.
    if (keyword === 'additionalProperties') continue;
    const test = keyword === 'properties' ? objectTest(value, node.additionalProperties) : keywordTest(keyword, value);
    if (!add(test)) return undefined;
  }
  if (node.additionalProperties !== undefined && node.properties === undefined && !add(objectTest({}, node.additionalProperties)))
    return undefined;
  return (value) => {
    const kind = typeOf(value);
    if (kind === undefined) return false;
    for (const test of tests) if (!test(value)) return false;
    return true;
  };
}

function keywordTest(keyword: string, value: unknown): QuickCheck | undefined {
  switch (keyword) {
    case 'type': {
      const types = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(types) || !types.every((t) => TYPES.has(t))) return undefined;
      return (v) => types.some((t) => hasType(t, typeOf(v)!, v));
    }
    case 'const':
      return isPrimitive(value) ? (v) => v === value : undefined;
    case 'enum':
      return Array.isArray(value) && value.every(isPrimitive) ? (v) => value.some((e) => e === v) : undefined;
    case 'required':
      if (!Array.isArray(value) || !value.every((k) => typeof k === 'string')) return undefined;
      return (v) => !isObject(v) || value.every((k) => Object.hasOwn(v, k));
    case 'items': {
      const item = compile(value); // one schema for every item (an array of schemas, a tuple, is not quick)
      if (!item) return undefined;
      return (v) => {
        if (!Array.isArray(v)) return true;
        for (let i = 0; i < v.length; i++) if (!item(v[i])) return false; // every index, holes too, as the validator reads them
        return true;
      };
    }
    case 'minItems':
      return isCount(value) ? (v) => !Array.isArray(v) || v.length >= value : undefined;
    case 'maxItems':
      return isCount(value) ? (v) => !Array.isArray(v) || v.length <= value : undefined;
    case 'minLength':
      return isCount(value) ? (v) => typeof v !== 'string' || codePoints(v) >= value : undefined;
    case 'maxLength':
      return isCount(value) ? (v) => typeof v !== 'string' || codePoints(v) <= value : undefined;
    case 'minimum':
      return isNumber(value) ? (v) => typeof v !== 'number' || v >= value : undefined;
    case 'maximum':
      return isNumber(value) ? (v) => typeof v !== 'number' || v <= value : undefined;
    case 'exclusiveMinimum':
      return isNumber(value) ? (v) => typeof v !== 'number' || v > value : undefined;
    case 'exclusiveMaximum':
      return isNumber(value) ? (v) => typeof v !== 'number' || v < value : undefined;
    case 'pattern': {
      const pattern = typeof value === 'string' ? regExp(value) : undefined; // once, not per check
      if (!pattern) return undefined;
      // No g or y flag, so test() keeps no state between values.
      return (v) => typeof v !== 'string' || pattern.test(v);
    }
    case 'format': {
      // A format the validator does not know is not checked there either (compileJsonSchema refuses or drops it first).
      if (typeof value !== 'string') return undefined;
      const fits = Object.hasOwn(FORMATS, value) ? FORMATS[value] : undefined;
      if (!fits) return () => true;
      return (v) => typeof v !== 'string' || fits(v);
    }
    default:
      return undefined;
  }
}

// properties with additionalProperties: each named property that is present fits its schema, every other fits `extra`.
function objectTest(properties: unknown, extra: unknown): QuickCheck | undefined {
  if (!isObject(properties)) return undefined;
  const named = new Map<string, QuickCheck>();
  for (const [name, schema] of Object.entries(properties)) {
    const test = compile(schema);
    if (!test) return undefined;
    named.set(name, test);
  }
  const other = extra === undefined ? undefined : extra === false ? () => false : compile(extra);
  if (extra !== undefined && !other) return undefined;
  return (v) => {
    if (!isObject(v)) return true;
    for (const [name, test] of named) if (Object.hasOwn(v, name) && !test(v[name])) return false;
    if (other)
      // As the validator reads them: every enumerable key, and only a key present as its own is a named property.
      for (const key in v) if (!(named.has(key) && Object.hasOwn(v, key)) && !other(v[key])) return false;
    return true;
  };
}
