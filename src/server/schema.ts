// Turning what users write (Zod objects, Zod shapes, JSON Schema) into validators and wire JSON Schema.
import * as z from 'zod';
import { compileJsonSchema, describeJsonSchemaIssues } from './json-schema';
import type { JsonObjectSchema, SchemaInput } from './tool-types';

export const isZodType = (value: unknown): value is z.ZodType => typeof value === 'object' && value !== null && '_zod' in value;

const isJsonSchema = (value: unknown): value is JsonObjectSchema =>
  typeof value === 'object' &&
  value !== null &&
  !isZodType(value) &&
  (value as { type?: unknown }).type === 'object' &&
  !Object.values(value).some(isZodType);

/** A Zod validator for the input, or undefined when the input is plain JSON Schema (passed through as written). */
export function toZod(input: SchemaInput | undefined): z.ZodType | undefined {
  if (input === undefined) return undefined;
  if (isZodType(input)) return input;
  if (isJsonSchema(input)) return undefined;
  if (typeof input !== 'object' || input === null)
    throw new Error('A schema must be a Zod object, an object of Zod types, or a JSON Schema object');
  const wrong = Object.entries(input).find(([, value]) => !isZodType(value));
  if (wrong)
    throw new Error(
      `"${wrong[0]}" is not a Zod type: write ${wrong[0]}: z.string() (or so), or give the whole schema as JSON Schema with type: 'object'`,
    );
  return z.object(input as Record<string, z.ZodType>);
}

/** Checks a value against a tool's schema: the value execute() gets (Zod's output), or one line naming each wrong field. */
export type Validate = (value: unknown) => { ok: true; value: unknown } | { ok: false; error: string };

/**
 * The check of a tool's input or output schema. Plain JSON Schema goes through the JSON Schema validator, prepared here
 * (at startup), so a schema it cannot check throws now with the reason, not at the first call.
 */
export function toValidator(input: SchemaInput | undefined): Validate | undefined {
  if (input === undefined) return undefined;
  if (isJsonSchema(input)) {
    const check = compileJsonSchema(input, 'strict');
    return (value) => {
      const issues = check(value);
      return issues.length ? { ok: false, error: describeJsonSchemaIssues(issues) } : { ok: true, value };
    };
  }
  const zod = toZod(input) as z.ZodType;
  return (value) => {
    const parsed = zod.safeParse(value);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: describeIssues(parsed.error) };
  };
}

const cache = new WeakMap<object, Record<string, unknown>>();

/** JSON Schema for the wire; cached per schema object, since a tool's schemas never change. */
export function toJsonSchema(input: SchemaInput | undefined, io: 'input' | 'output'): Record<string, unknown> {
  if (input === undefined) return { type: 'object' };
  if (isJsonSchema(input)) return input;
  const key = input as object;
  const hit = cache.get(key);
  if (hit && io === 'input') return hit;
  const zod = toZod(input) as z.ZodType;
  const json = z.toJSONSchema(zod, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  if (io === 'input') cache.set(key, json);
  return json;
}

const forms = new WeakMap<object, Record<string, unknown>>();

/** The restricted form schema of elicitation/create: a flat object, no $schema or additionalProperties. */
export function toFormSchema(input: SchemaInput): Record<string, unknown> {
  const hit = forms.get(input);
  if (hit) return hit;
  const { $schema: _s, additionalProperties: _a, ...rest } = toJsonSchema(input, 'input');
  if (!('properties' in rest)) rest.properties = {};
  if (isJsonSchema(input)) return rest; // the caller's own object, read again each time
  // A Zod schema never changes: its form is made once, frozen, and shared by every question (and hook) that uses it.
  const form = deepFreeze(structuredClone(rest));
  forms.set(input, form);
  return form;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) for (const inner of Object.values(Object.freeze(value))) deepFreeze(inner);
  return value;
}

/** Zod's issues as one line that names each wrong field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}
