// Checks content against a hand-written JSON Schema form (the flat subset elicitation allows).
type Field = { type?: string; enum?: unknown[]; minimum?: number; maximum?: number; minLength?: number; maxLength?: number; items?: { enum?: unknown[] } };

/** Returns a description of what is wrong, or undefined when the content fits. */
export function checkFlatForm(content: unknown, schema: Record<string, unknown>): string | undefined {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return '(root): expected an object';
  const values = content as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, Field>;
  const problems: string[] = [];
  for (const name of (schema.required as string[] | undefined) ?? []) if (values[name] === undefined) problems.push(`${name}: required`);
  for (const [name, value] of Object.entries(values)) {
    const field = properties[name];
    if (!field || value === undefined) continue;
    const problem = checkField(value, field);
    if (problem) problems.push(`${name}: ${problem}`);
  }
  return problems.length ? problems.join('; ') : undefined;
}

function checkField(value: unknown, field: Field): string | undefined {
  const type = field.type;
  if (type === 'boolean' && typeof value !== 'boolean') return 'expected boolean';
  if ((type === 'number' || type === 'integer') && (typeof value !== 'number' || (type === 'integer' && !Number.isInteger(value)))) return `expected ${type}`;
  if (type === 'string' && typeof value !== 'string') return 'expected string';
  if (type === 'array' && (!Array.isArray(value) || (field.items?.enum && value.some((v) => !field.items!.enum!.includes(v))))) return 'expected an array of the listed options';
  if (field.enum && !field.enum.includes(value)) return `expected one of ${field.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (typeof value === 'number' && ((field.minimum !== undefined && value < field.minimum) || (field.maximum !== undefined && value > field.maximum))) return 'out of range';
  if (typeof value === 'string' && ((field.minLength !== undefined && value.length < field.minLength) || (field.maxLength !== undefined && value.length > field.maxLength))) return 'wrong length';
  return undefined;
}
