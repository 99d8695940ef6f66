// Checks content against a hand-written JSON Schema form (the flat subset elicitation allows).
import { ownValue } from '../protocol';
type Choice = { const?: unknown };
type Field = {
  type?: string;
  enum?: unknown[];
  oneOf?: Choice[];
  anyOf?: Choice[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: { enum?: unknown[]; anyOf?: Choice[]; oneOf?: Choice[] };
};

/** The values a field or its items may take, from `enum` or a titled `oneOf`/`anyOf` of consts. */
const optionsOf = (f: Field | Field['items'] | undefined): unknown[] | undefined =>
  f?.enum ?? (f?.oneOf ?? f?.anyOf)?.filter((c) => c && Object.hasOwn(c, 'const')).map((c) => c.const);

// The string formats elicitation forms allow; a value that does not parse is refused.
const FORMATS = new Map<string, (v: string) => boolean>(
  Object.entries({
    email: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
    uri: (v) => URL.canParse?.(v) ?? /^[a-z][a-z0-9+.-]*:/i.test(v),
    date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
    'date-time': (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v) && !Number.isNaN(Date.parse(v)),
  } satisfies Record<string, (v: string) => boolean>),
);

/**
 * Returns a description of what is wrong, or undefined when the content fits. Only own keys count, of the content and
 * of the schema: a field named `constructor` is not answered by Object.prototype, nor checked against it.
 */
export function checkFlatForm(content: unknown, schema: Record<string, unknown>): string | undefined {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return '(root): expected an object';
  const values = content as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, Field>;
  const problems: string[] = [];
  for (const name of (schema.required as string[] | undefined) ?? [])
    if (ownValue(values, name) === undefined) problems.push(`${name}: required`);
  for (const [name, value] of Object.entries(values)) {
    const field = ownValue(properties, name) as Field | undefined;
    if (!field || value === undefined) continue;
    const problem = checkField(value, field);
    if (problem) problems.push(`${name}: ${problem}`);
  }
  return problems.length ? problems.join('; ') : undefined;
}

function checkField(value: unknown, field: Field): string | undefined {
  const type = field.type;
  if (type === 'boolean' && typeof value !== 'boolean') return 'expected boolean';
  if ((type === 'number' || type === 'integer') && (typeof value !== 'number' || (type === 'integer' && !Number.isInteger(value))))
    return `expected ${type}`;
  if (type === 'string' && typeof value !== 'string') return 'expected string';
  const items = optionsOf(field.items);
  if (type === 'array' && (!Array.isArray(value) || (items && value.some((v) => !items.includes(v)))))
    return 'expected an array of the listed options';
  if (
    Array.isArray(value) &&
    ((field.minItems !== undefined && value.length < field.minItems) || (field.maxItems !== undefined && value.length > field.maxItems))
  )
    return 'wrong number of choices';
  const options = optionsOf(field);
  if (options && !options.includes(value)) return `expected one of ${options.map((v) => JSON.stringify(v)).join(', ')}`;
  const format = typeof field.format === 'string' ? FORMATS.get(field.format) : undefined;
  if (typeof value === 'string' && format && !format(value)) return `expected a valid ${field.format}`;
  if (
    typeof value === 'number' &&
    ((field.minimum !== undefined && value < field.minimum) || (field.maximum !== undefined && value > field.maximum))
  )
    return 'out of range';
  if (
    typeof value === 'string' &&
    ((field.minLength !== undefined && value.length < field.minLength) || (field.maxLength !== undefined && value.length > field.maxLength))
  )
    return 'wrong length';
  return undefined;
}
