// Turning what users write (any Standard Schema: Zod, Zod Mini, Valibot, ArkType; a Zod shape; plain JSON Schema) into
// validators and wire JSON Schema.
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import * as z from 'zod';
import { compileJsonSchema, describeJsonSchemaIssues } from './json-schema';
import type { JsonObjectSchema, SchemaInput } from './tool-types';

const isZodType = (value: unknown): value is z.ZodType => typeof value === 'object' && value !== null && '_zod' in value;

/** A schema of any library that implements Standard Schema (an ArkType schema is a function). */
const isStandard = (value: unknown): value is StandardSchemaV1 =>
  (typeof value === 'object' || typeof value === 'function') && value !== null && '~standard' in value;

/** Plain JSON Schema: an object with type 'object' that is no library's schema (a Valibot object has type 'object' too). */
export const isJsonSchema = (value: unknown): value is JsonObjectSchema =>
  typeof value === 'object' &&
  value !== null &&
  !isStandard(value) &&
  (value as { type?: unknown }).type === 'object' &&
  !Object.values(value).some(isStandard);

/** The library schema of the input (a Zod shape becomes a Zod object), or undefined when it is plain JSON Schema. */
function toStandard(input: SchemaInput): StandardSchemaV1 | undefined {
  if (isStandard(input)) return input;
  if (isJsonSchema(input)) return undefined;
  if (typeof input !== 'object' || input === null)
    throw new Error('A schema must be a Standard Schema (Zod, Valibot, ArkType…), an object of Zod types, or a JSON Schema object');
  const wrong = Object.entries(input).find(([, value]) => !isZodType(value));
  if (wrong)
    throw new Error(
      `"${wrong[0]}" is not a Zod type: write ${wrong[0]}: z.string() (or so), or give the whole schema as one object schema`,
    );
  return z.object(input as Record<string, z.ZodType>);
}

/** What a check found: the value execute() gets (the library's output), or one line naming each wrong field. */
export type Checked = { ok: true; value: unknown } | { ok: false; error: string };
/** Checks a value against a schema; a library's asynchronous check answers with a promise. */
export type Validate = (value: unknown) => Checked | Promise<Checked>;

const checked = (result: StandardSchemaV1.Result<unknown>): Checked =>
  result.issues ? { ok: false, error: describeIssues(result.issues) } : { ok: true, value: result.value };

/**
 * The check of a tool's or a question's schema. Plain JSON Schema goes through the JSON Schema validator, prepared here
 * (at startup for a tool), so a schema it cannot check throws now with the reason, not at the first call.
 */
export function toValidator(input: SchemaInput): Validate {
  const schema = toStandard(input);
  if (!schema) {
    const check = compileJsonSchema(input as JsonObjectSchema, 'strict');
    return (value) => {
      const issues = check(value);
      return issues.length ? { ok: false, error: describeJsonSchemaIssues(issues) } : { ok: true, value };
    };
  }
  // Fast path: a classic Zod schema parses synchronously without the Standard Schema wrapper.
  if (isZodType(schema) && typeof schema.safeParse === 'function') {
    const zod = schema;
    return (value) => {
      const parsed = zod.safeParse(value);
      return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: describeIssues(parsed.error.issues) };
    };
  }
  const validate = schema['~standard'].validate;
  return (value) => {
    const result = validate(value);
    return result instanceof Promise ? result.then(checked) : checked(result);
  };
}

// What to install when a library's schemas carry no JSON Schema of their own, by vendor.
const CONVERTERS = new Map([['valibot', 'install @valibot/to-json-schema and pass toStandardJsonSchema(schema)']]);

const cache = new WeakMap<object, Record<string, unknown>>();

/** JSON Schema for the wire, from the library's own converter; cached per schema object, since a tool's schemas never change. */
export function toJsonSchema(input: SchemaInput | undefined, io: 'input' | 'output'): Record<string, unknown> {
  if (input === undefined) return { type: 'object' };
  if (isJsonSchema(input)) return input;
  const key = input as object;
  const hit = cache.get(key);
  if (hit && io === 'input') return hit;
  const schema = toStandard(input) as StandardSchemaV1;
  const json = isZodType(schema)
    ? // Zod and Zod Mini (whose schemas carry no converter): zod's own, which Parley has anyway.
      (z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>)
    : fromConverter(schema, io);
  if (io === 'input') cache.set(key, json);
  return json;
}

function fromConverter(schema: StandardSchemaV1, io: 'input' | 'output'): Record<string, unknown> {
  const { vendor, jsonSchema } = schema['~standard'] as StandardSchemaV1.Props & { jsonSchema?: StandardJSONSchemaV1.Converter };
  if (typeof jsonSchema?.[io] !== 'function')
    throw new Error(
      `a ${vendor} schema carries no JSON Schema (Standard JSON Schema, ~standard.jsonSchema): ${CONVERTERS.get(vendor) ?? 'give this schema as plain JSON Schema, or write it with a library whose schemas carry one (Zod 4, ArkType 2)'}`,
    );
  return jsonSchema[io]({ target: 'draft-2020-12' }); // a converter's own error names what it cannot convert
}

const forms = new WeakMap<object, Record<string, unknown>>();

/** The restricted form schema of elicitation/create: a flat object, no $schema or additionalProperties. */
export function toFormSchema(input: SchemaInput): Record<string, unknown> {
  const hit = forms.get(input);
  if (hit) return hit;
  const { $schema: _s, additionalProperties: _a, ...rest } = toJsonSchema(input, 'input');
  if (!('properties' in rest)) rest.properties = {};
  if (isJsonSchema(input)) return rest; // the caller's own object, read again each time
  // A library's schema never changes: its form is made once, frozen, and shared by every question (and hook) that uses it.
  const form = deepFreeze(structuredClone(rest));
  forms.set(input, form);
  return form;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) for (const inner of Object.values(Object.freeze(value))) deepFreeze(inner);
  return value;
}

/** A library's issues (Standard Schema's, or Zod's) as one line that names each wrong field. */
function describeIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  return issues
    .map((i) => {
      const path = (i.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p));
      return `${path.length ? path.join('.') : '(root)'}: ${i.message}`;
    })
    .join('; ');
}
