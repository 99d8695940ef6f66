// The quick check against the validator it stands in front of: on seeded random schemas of the keywords it covers and
// random values near their edges, it answers exactly as @cfworker/json-schema does; every other schema is left to it.
import { validate, type Schema } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../src/model/json-schema';
import { quickCheck } from '../../src/model/json-schema-quick';

const SEED = Number(process.env.FUZZ_SEED ?? 3636);

// A small seeded generator (xorshift), so a failing case replays with its seed.
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}
type Random = ReturnType<typeof generator>;

const NAMES = ['id', 'name', 'tags', 'n', '__proto__', 'constructor', 'toString', 'é'] as const;
const STRINGS = ['', 'a', 'T-12', 'T-x', 'ab', '😀', '😀😀', 'é', 'a@example.com', 'not an email', '2024-01-31', 'https://example.com/x'];
const NUMBERS = [0, -1, 1, 2, 3, 2.5, -0.5, 10, 1e21];

function schemaOf(r: Random, depth: number): Record<string, unknown> | boolean {
  if (r.next() < 0.05) return true;
  const schema: Record<string, unknown> = {};
  const type = r.pick(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null', undefined, 'many'] as const);
  if (type === 'many') schema.type = [r.pick(['string', 'null', 'integer']), r.pick(['number', 'boolean', 'array'])];
  else if (type) schema.type = type;
  if (r.next() < 0.5) schema.description = 'annotated';
  // Keywords for every type, so some apply to a value of another type (and must then say nothing).
  for (const [keyword, chance, make] of [
    ['minLength', 0.2, () => r.int(3)],
    ['maxLength', 0.2, () => r.int(3)],
    ['pattern', 0.15, () => r.pick(['^T-[0-9]+$', '^.$', 'a'])],
    ['format', 0.15, () => r.pick(['email', 'date', 'uri', 'nonsense'])],
    ['minimum', 0.2, () => r.pick(NUMBERS)],
    ['maximum', 0.2, () => r.pick(NUMBERS)],
    ['exclusiveMinimum', 0.1, () => r.pick(NUMBERS)],
    ['exclusiveMaximum', 0.1, () => r.pick(NUMBERS)],
    ['minItems', 0.15, () => r.int(3)],
    ['maxItems', 0.15, () => r.int(3)],
    ['const', 0.05, () => r.pick([1, 'a', true, null])],
    ['enum', 0.1, () => [r.pick(STRINGS), r.pick(NUMBERS), r.pick([true, false, null])]],
  ] as const)
    if (r.next() < chance) schema[keyword] = make();
  if (depth < 3 && (type === 'object' || r.next() < 0.2)) {
    const properties: Record<string, unknown> = {};
    for (let i = r.int(3); i > 0; i--)
      Object.defineProperty(properties, r.pick(NAMES), {
        value: schemaOf(r, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    if (r.next() < 0.8) schema.properties = properties;
    if (r.next() < 0.4) schema.required = [r.pick(NAMES), r.pick(NAMES)].slice(0, 1 + r.int(2));
    if (r.next() < 0.4) schema.additionalProperties = r.next() < 0.5 ? false : schemaOf(r, depth + 1);
  }
  if (depth < 3 && (type === 'array' || r.next() < 0.2)) schema.items = schemaOf(r, depth + 1);
  return schema;
}

function valueOf(r: Random, depth: number): unknown {
  const kind = r.int(depth < 3 ? 7 : 5);
  if (kind === 0) return r.pick(STRINGS);
  if (kind === 1) return r.pick(NUMBERS);
  if (kind === 2) return r.pick([true, false]);
  if (kind === 3 || kind === 4) return null;
  if (kind === 5) return Array.from({ length: r.int(4) }, () => valueOf(r, depth + 1));
  // As JSON.parse builds it: `__proto__` becomes a key of its own, not the prototype.
  const entries = Array.from({ length: r.int(4) }, () => [JSON.stringify(r.pick(NAMES)), JSON.stringify(valueOf(r, depth + 1))]);
  return JSON.parse(`{${entries.map(([k, v]) => `${k}:${v}`).join(',')}}`);
}

describe(`the quick JSON Schema check (seed ${SEED})`, () => {
  it('answers as the validator does on 3,000 random schemas, 20 values each', () => {
    const r = generator(SEED);
    let quick = 0;
    let valid = 0;
    for (let i = 0; i < 3000; i++) {
      const schema = schemaOf(r, 0);
      // As compileJsonSchema prepares it: a format the validator does not know is dropped before a check.
      const check = quickCheck(schema, '2020-12');
      if (!check) continue;
      quick++;
      for (let j = 0; j < 20; j++) {
        const value = r.next() < 0.5 ? valueOf(r, 0) : valueOf(r, 2);
        const expected = validate(value, schema as Schema, '2020-12', undefined, false).valid;
        if (expected) valid++;
        if (check(value) !== expected)
          throw new Error(
            `schema ${i} (seed ${SEED}): ${JSON.stringify(schema)} with ${JSON.stringify(value)}: the validator says ${expected}`,
          );
      }
    }
    // Most random schemas are quick, and enough values fit them that "valid" is tested, not only "not valid".
    expect(quick).toBeGreaterThan(2500);
    expect(valid).toBeGreaterThan(10_000);
  });

  it('covers the schemas tools declare: one field, and a ticket with a pattern, bounds, an array and a format', () => {
    const ticket = {
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^T-[0-9]+$' },
        priority: { type: 'integer', minimum: 0, maximum: 3 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
        owner: { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] },
      },
      required: ['id', 'priority'],
      additionalProperties: false,
    };
    const check = quickCheck(ticket, '2020-12');
    expect(check?.({ id: 'T-12', priority: 2, tags: ['a'], owner: { email: 'a@example.com' } })).toBe(true);
    expect(check?.({ id: 'T-12', priority: 2, extra: 1 })).toBe(false);
    expect(check?.({ id: 'T-12', priority: 2.5 })).toBe(false);
    expect(quickCheck({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, '2020-12')?.({ name: 'Ada' })).toBe(
      true,
    );
  });

  it('leaves to the validator every keyword it does not cover, draft 4, and values JSON cannot carry', () => {
    for (const schema of [
      { $ref: '#/$defs/a', $defs: { a: { type: 'string' } } },
      { anyOf: [{ type: 'string' }] },
      { type: 'number', multipleOf: 2 },
      { type: 'array', uniqueItems: true },
      { type: 'array', items: [{ type: 'string' }] },
      { type: 'object', patternProperties: { '^a': { type: 'string' } } },
      { enum: [{ a: 1 }] },
      { $id: 'https://example.com/s' },
      { unknownKeyword: 1 },
      false,
    ])
      expect(quickCheck(schema, '2020-12'), JSON.stringify(schema)).toBeUndefined();
    expect(quickCheck({ type: 'number', minimum: 1, exclusiveMinimum: true }, '4')).toBeUndefined();
    const check = quickCheck({ type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } }, '2020-12')!;
    expect(check({ a: undefined })).toBe(false);
    // biome-ignore lint/suspicious/noSparseArray: a hole, which JSON cannot carry
    expect(check({ a: ['x', , 'y'] })).toBe(false);
    expect(check({ a: [1n] })).toBe(false);
  });

  it("keeps the validator's issues for a value that does not fit, and its verdict for one the quick check cannot judge", () => {
    const check = compileJsonSchema({ type: 'object', properties: { id: { type: 'string', pattern: '^T-' } }, required: ['id'] }, 'strict');
    expect(check({ id: 'T-1' })).toEqual([]);
    expect(check({ id: 'X-1' }).map((issue) => [issue.path, issue.keyword])).toEqual([[['id'], 'pattern']]);
    expect(check({}).map((issue) => issue.keyword)).toEqual(['required']);
    // undefined is not JSON: the validator judges what JSON would carry ({}), and the required id is missing.
    expect(check({ id: undefined }).map((issue) => issue.keyword)).toEqual(['required']);
  });
});
